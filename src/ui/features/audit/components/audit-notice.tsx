import type { AuditState } from '../api/get-audit-state.ts';
import '../audit.css';

const sentence = (text: string) => text.trim().replace(/[.;:]+$/, '');

/** L7: what changed and how an admin lets signing go on; L8: that nothing is signed, and what that means. */
export function AuditNotice({ state }: { state: AuditState }) {
  return (
    <div className="au-banner">
      {!state.integrity.ok && (
        <div role="alert" className="au-alert" data-tone="down">
          <p>
            <strong>Audit log does not match its signed checkpoints:</strong> {sentence(state.integrity.detail ?? 'an entry was changed or removed')}.
          </p>
          <p>
            No checkpoint is signed until an admin has looked into it and runs <code>askdock audit acknowledge</code>.
          </p>
        </div>
      )}
      {state.unsigned && (
        <div role="status" className="au-alert" data-tone="busy">
          <p>
            <strong>audit: unsigned</strong>. This gateway has no usable signing key: decisions are logged but get no receipts, and{' '}
            <code>askdock audit export</code> needs <code>--unsigned</code>. Its start line says why.
          </p>
        </div>
      )}
    </div>
  );
}
