import { credentialWarning, type CredentialMatch } from '../../../../answers/credentials.ts';
import { ConfirmAlert } from '../../../components/ui/alert-dialog.tsx';

/** W3: the warning before an answer that looks like a credential is sent; it names the shape, never the text. */
export function CredentialAlert({ match, onConfirm, onCancel }: { match: CredentialMatch | null; onConfirm: () => void; onCancel: () => void }) {
  return (
    <ConfirmAlert
      open={match !== null}
      title="This looks like a credential"
      description={match ? credentialWarning(match) : ''}
      confirmLabel="Send anyway"
      cancelLabel="Cancel"
      onConfirm={onConfirm}
      onCancel={onCancel}
    />
  );
}
