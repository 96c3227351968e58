import { Button } from '../../../components/ui/button.tsx';

type Props = {
  /** The id of the row's rule: what the button revokes, read as its description. */
  ruleId: string;
  pending: boolean;
  /** Why the last revoke of this grant failed, if it did. */
  failed: string | undefined;
  onRevoke: () => void;
};

/**
 * G5/G12: Revoke, at one click: it only takes a permission away (the request asks again), so nothing asks first.
 * While the gateway works on it the row stays and says so; a failure says why, beside the button that tries again.
 */
export function RevokeGrantButton({ ruleId, pending, failed, onRevoke }: Props) {
  return (
    <span className="policy-revoke">
      {/* aria-disabled, not disabled: the button keeps focus while its revoke is under way. */}
      <Button size="sm" variant="secondary" aria-describedby={ruleId} aria-disabled={pending || undefined} onClick={() => pending || onRevoke()}>
        Revoke
      </Button>
      <span role="status" className="policy-revoke-note muted">
        {pending ? 'Revoking…' : ''}
      </span>
      {failed !== undefined && !pending && (
        <span role="alert" className="policy-revoke-note inline-error">
          Not revoked: {failed}
        </span>
      )}
    </span>
  );
}
