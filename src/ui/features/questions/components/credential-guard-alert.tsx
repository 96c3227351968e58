import type { CredentialMatch } from '../../../../answers/credentials.ts';
import { lazyWithRetry } from '../../../lib/lazy-with-retry.ts';
import { LazyBoundary } from '../../../components/lazy-boundary.tsx';

// The dialog's code loads only when an answer first looks like a credential, so the first load stays small.
const CredentialAlert = lazyWithRetry(() => import('./credential-alert.tsx'), (m) => m.CredentialAlert);

/** W3: shows the credential warning while a send is held back, and nothing otherwise. */
export function CredentialGuardAlert(props: { match: CredentialMatch | null; onConfirm: () => void; onCancel: () => void }) {
  if (props.match === null) return null;
  return (
    <LazyBoundary>
      <CredentialAlert {...props} />
    </LazyBoundary>
  );
}
