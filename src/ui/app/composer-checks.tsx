import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import type { AlertChoice } from '../components/ui/alert-dialog.tsx';
import { lazyWithRetry } from '../lib/lazy-with-retry.ts';
import { retryingImport } from '../lib/retrying-import.ts';
import { LazyBoundary } from '../components/lazy-boundary.tsx';

// The dialog's code (a Radix alert dialog) loads the first time a message needs asking about, not with the first screen.
const ChoiceAlert = lazyWithRetry(() => import('../components/ui/alert-dialog.tsx'), (m) => m.ChoiceAlert);
// The wording, the readers and the way an async answer is queued (as the dock queues it) load with the first message
// sent, not with the first screen.
const checkQuestions = retryingImport(() => import('./composer-check-questions.ts'));
import { useOnlyDockedAsync, usePendingSecret, useProvideSecretValue } from '../features/questions/index.tsx';
import { useOutbox } from '../lib/outbox/use-outbox.ts';
import { useHello } from '../lib/gateway.tsx';

type Asking = { title: string; description: string; choices: AlertChoice<string>[]; resolve: (choice: string | null) => void };

/** What the composer says when the person steps back from a check: the words stay in the box. */
export const KEPT_TO_EDIT = 'kept here to edit';


/**
 * Checks a composer message before it leaves (W3, U8): a credential-shaped text asks first and may go as the pending
 * secret instead; a reply like `2` or an option's label while one async question waits asks whether it is that
 * question's answer (then it goes through the outbox as the dock would) or a chat message.
 */
export function useComposerChecks(sessionKey: string, sendMessage: (text: string) => Promise<void>): { send: (text: string) => Promise<void>; dialog: ReactNode } {
  const docked = useOnlyDockedAsync(sessionKey);
  const secret = usePendingSecret(sessionKey);
  const outbox = useOutbox();
  const provideSecret = useProvideSecretValue();
  const scopes = useHello()?.auth.scopes ?? null;
  const [asking, setAsking] = useState<Asking | null>(null);
  const latest = useRef({ docked, secret, scopes });
  latest.current = { docked, secret, scopes };
  // Fetched once the composer is up, so a send made offline later never waits on a chunk it cannot fetch.
  useEffect(() => void checkQuestions.load(), []);

  const send = useCallback(
    async (text: string) => {
      const ask = (a: Omit<Asking, 'resolve'>) => new Promise<string | null>((resolve) => setAsking({ ...a, resolve }));
      const kept = () => new Error(KEPT_TO_EDIT);
      const { docked, secret, scopes } = latest.current;
      // A preload that failed (offline) is fetched again here.
      const checks = await checkQuestions.load();
      const question = checks.composerQuestion(text, docked, secret, scopes);
      if (!question) return sendMessage(text);
      const choice = await ask(question);
      if (choice === null) throw kept();
      if (question.kind === 'credential' && choice === 'secret' && secret) return provideSecret(secret.id, text);
      if (question.kind === 'answer' && choice === 'answer' && docked && question.answers) return void (await checks.queueAsyncAnswer(outbox, docked, question.answers));
      return sendMessage(text);
    },
    [sendMessage, outbox, provideSecret],
  );

  const settle = (choice: string | null) => {
    asking?.resolve(choice);
    setAsking(null);
  };
  const dialog = asking && (
    <LazyBoundary>
      <ChoiceAlert
        open
        title={asking.title}
        description={asking.description}
        choices={asking.choices}
        cancelLabel="Keep editing"
        onChoose={settle}
        onCancel={() => settle(null)}
      />
    </LazyBoundary>
  );
  return { send, dialog };
}
