import { LazyBoundary } from '../../../components/lazy-boundary.tsx';
import { lazyWithRetry } from '../../../lib/lazy-with-retry.ts';
import { usePolicyError } from '../api/get-policy.ts';
import { usePolicySync } from '../api/policy-sync.ts';

// Rare (a reload that failed): its words load only when there is one.
const PolicyErrorNotice = lazyWithRetry(() => import('./policy-error-notice.tsx'), (m) => m.PolicyErrorNotice);

/**
 * G10: tells admins, on every page, that a reload of the approval policy failed and the previous one stays in force;
 * keeps the policy fresh from its events. The Rules page shows the same alert itself (`onRulesPage`).
 */
export function PolicyBanner({ onRulesPage }: { onRulesPage: boolean }) {
  usePolicySync();
  const error = usePolicyError();
  if (error === undefined || onRulesPage) return null;
  return (
    <LazyBoundary>
      <PolicyErrorNotice error={error} />
    </LazyBoundary>
  );
}
