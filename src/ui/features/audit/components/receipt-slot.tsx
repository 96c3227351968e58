import { LazyBoundary } from '../../../components/lazy-boundary.tsx';
import { lazyWithRetry } from '../../../lib/lazy-with-retry.ts';
import { loadAuditViews } from './load-audit-views.ts';

// The receipt's popover (and Radix with it) loads after the first screen: nothing of it is needed to read or answer.
const ReceiptPopover = lazyWithRetry(loadAuditViews, (m) => m.ReceiptPopover);

/** L4: the "Receipt" button a decided question's summary shows when the gateway signed its decision. */
export function ReceiptSlot({ receipt }: { receipt: string }) {
  return (
    <LazyBoundary>
      <ReceiptPopover receipt={receipt} />
    </LazyBoundary>
  );
}
