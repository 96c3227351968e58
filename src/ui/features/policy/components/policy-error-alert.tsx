import type { ReactNode } from 'react';

/** G10: a reload that failed, for admins: what was wrong, and that nothing changed because of it. */
export function PolicyErrorAlert({ error, children }: { error: string; children?: ReactNode }) {
  return (
    <div role="alert" className="policy-alert">
      <p className="policy-alert-text">
        <strong>Approval policy not reloaded:</strong> {error.trim().replace(/[.;]+$/, '')}; the previous policy is in force.
      </p>
      {children}
    </div>
  );
}
