import { useAuditSync } from '../api/audit-sync.ts';
import { useAuditState } from '../api/get-audit-state.ts';
import { AuditNotice } from './audit-notice.tsx';

/** L7/L8 for an admin: the log's state kept fresh, and the notice while there is something to say. */
export function AuditWatch() {
  useAuditSync();
  const state = useAuditState();
  if (!state || (state.integrity.ok && !state.unsigned)) return null;
  return <AuditNotice state={state} />;
}
