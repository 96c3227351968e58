import { useState } from 'react';
import { Button } from '../../../components/ui/button.tsx';
import { LazyBoundary } from '../../../components/lazy-boundary.tsx';
import { lazyWithRetry } from '../../../lib/lazy-with-retry.ts';
import { loadAuditViews } from './load-audit-views.ts';
import './receipt-trigger.css';

// The receipt's popover (and Radix with it) loads after the first screen: nothing of it is needed to read or answer.
const ReceiptPopover = lazyWithRetry(loadAuditViews, (m) => m.ReceiptPopover);

/**
 * L4: the "Receipt" button a decided question's summary shows when the gateway signed its decision. Until the
 * popover's code is here the same button stands in, so nothing moves when it arrives and a click is not lost.
 */
export function ReceiptSlot({ receipt }: { receipt: string }) {
  const [asked, setAsked] = useState(false);
  const standIn = (
    <Button size="sm" variant="ghost" className="au-receipt-trigger" aria-expanded={false} onClick={() => setAsked(true)}>
      Receipt
    </Button>
  );
  return (
    <LazyBoundary pending={standIn} failed={standIn}>
      <ReceiptPopover receipt={receipt} openAtStart={asked} />
    </LazyBoundary>
  );
}
