import { lazy, Suspense } from 'react';
import type { CredentialMatch } from '../../../../answers/credentials.ts';

// The dialog's code loads only when an answer first looks like a credential, so the first load stays small.
const CredentialAlert = lazy(() => import('./credential-alert.tsx').then((m) => ({ default: m.CredentialAlert })));

/** W3: shows the credential warning while a send is held back, and nothing otherwise. */
export function CredentialGuardAlert(props: { match: CredentialMatch | null; onConfirm: () => void; onCancel: () => void }) {
  if (props.match === null) return null;
  return (
    <Suspense fallback={null}>
      <CredentialAlert {...props} />
    </Suspense>
  );
}
