import { useCallback, useState } from 'react';
import type { ComposerSlot } from '../lib/composer-slot.tsx';
import { forgetToken, keepToken, takeToken } from '../lib/token.ts';
import { ConnectedApp } from './connected-app.tsx';
import { lazyWithRetry } from '../lib/lazy-with-retry.ts';
import { LazyBoundary, LoadFailed } from '../components/lazy-boundary.tsx';

const SignInPage = lazyWithRetry(() => import('./sign-in-page.tsx'), (m) => m.default);

export type AppProps = {
  /** Replaces the built-in composer (U14); see docs/composer-slot.md. */
  composerSlot?: ComposerSlot;
};

/** The Control UI: a sign-in form without a token, else the app connected to the gateway at this origin. */
export function App({ composerSlot }: AppProps) {
  const [token, setToken] = useState<string | null>(() => takeToken());
  const [problem, setProblem] = useState<string | undefined>();
  // A refused token stays in the field, so a typo is fixed rather than pasted again.
  const [refused, setRefused] = useState('');

  const signIn = useCallback((next: string, remember: boolean) => {
    keepToken(next, remember);
    setProblem(undefined);
    setToken(next);
  }, []);

  const rejected = useCallback(
    (message: string) => {
      forgetToken();
      setRefused(token ?? '');
      setProblem(message);
      setToken(null);
    },
    [token],
  );

  if (!token)
    return (
      <LazyBoundary failed={
          <main className="sign-in">
            <LoadFailed what="the sign-in form" />
          </main>
        }>
        <SignInPage onToken={signIn} problem={problem} initialToken={refused} />
      </LazyBoundary>
    );
  return <ConnectedApp key={token} token={token} composerSlot={composerSlot} onRejected={rejected} />;
}
