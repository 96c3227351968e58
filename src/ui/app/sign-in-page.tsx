import { useId, useState, type FormEvent } from 'react';
import { Button } from '../components/ui/button.tsx';
import { Checkbox } from '../components/ui/checkbox.tsx';

/** Shown when the tab has no token (or the gateway refused it): paste the token `askdock start` printed. */
type Props = { onToken: (token: string, remember: boolean) => void; problem?: string; initialToken?: string };

export default function SignInPage({ onToken, problem, initialToken = '' }: Props) {
  const [token, setToken] = useState(initialToken);
  const [remember, setRemember] = useState(true);
  const inputId = useId();
  const rememberId = useId();
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const value = token.trim();
    if (value) onToken(value, remember);
  };
  return (
    <main className="sign-in">
      <form className="sign-in-card" onSubmit={submit}>
        <h1>askdock</h1>
        <p className="muted">
          Open the address <code>askdock start</code> or <code>askdock gateway</code> printed, or paste its token here.
        </p>
        {problem && (
          <p className="inline-error" role="alert">
            {problem}
          </p>
        )}
        <label htmlFor={inputId}>Token</label>
        <input
          id={inputId}
          // The page has one thing to do: the field takes focus, also when it comes back after a refused token.
          autoFocus
          type="text"
          autoComplete="off"
          spellCheck={false}
          value={token}
          onChange={(event) => setToken(event.target.value)}
        />
        {/* Remembered for this browser by default, so a question link opens in a new tab; unticked, this tab only. */}
        <div className="sign-in-remember">
          <Checkbox id={rememberId} checked={remember} onCheckedChange={(value) => setRemember(value === true)} />
          <label htmlFor={rememberId}>Remember me on this browser</label>
        </div>
        <Button type="submit" variant="primary" disabled={!token.trim()}>
          Sign in
        </Button>
      </form>
    </main>
  );
}
