import type { HelloOk } from '../../../../protocol/index.ts';
import { LazyBoundary } from '../../../components/lazy-boundary.tsx';
import { useHello } from '../../../lib/gateway.tsx';
import { lazyWithRetry } from '../../../lib/lazy-with-retry.ts';
import { loadAuditViews } from './load-audit-views.ts';

// Admins only, and rarely with anything to say: what watches the log loads after the first screen, for them alone.
const AuditWatch = lazyWithRetry(loadAuditViews, (m) => m.AuditWatch);

/** Only admins are told (A5): others never ask, and the gateway refuses them `audit.checkpoint` anyway. */
export const mayReadAuditState = (hello: HelloOk | null) =>
  hello?.auth.scopes.includes('operator.admin') === true && hello.features?.methods.includes('audit.checkpoint') === true;

/** L7/L8: tells admins, above every page, that the audit log no longer matches its checkpoints, or is not signed. */
export function AuditBanner() {
  if (!mayReadAuditState(useHello())) return null;
  return (
    <LazyBoundary>
      <AuditWatch />
    </LazyBoundary>
  );
}
