import { useState } from 'react';
import type { PolicyGrant } from '../../../../protocol/policy.ts';
import { ConfirmAlert } from '../../../components/ui/alert-dialog.tsx';
import { Button } from '../../../components/ui/button.tsx';

/** G12: Revoke, confirmed first: a revoked grant's requests ask again. */
export function RevokeGrantButton({ grant, busy, onRevoke }: { grant: PolicyGrant; busy: boolean; onRevoke: (id: string) => void }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button size="sm" variant="secondary" aria-label={`Revoke grant ${grant.rule}`} disabled={busy} onClick={() => setOpen(true)}>
        Revoke
      </Button>
      <ConfirmAlert
        open={open}
        title="Revoke this grant?"
        description={`Requests matching ${grant.rule} will ask again, unless a rule of the policy allows them.`}
        confirmLabel="Revoke grant"
        cancelLabel="Keep it"
        onConfirm={() => {
          setOpen(false);
          onRevoke(grant.id);
        }}
        onCancel={() => setOpen(false)}
      />
    </>
  );
}
