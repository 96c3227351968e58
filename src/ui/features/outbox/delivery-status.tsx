import { LazyBoundary } from '../../components/lazy-boundary.tsx';
import { lazyWithRetry } from '../../lib/lazy-with-retry.ts';
import { useOutbox, useOutboxRowForQuestion } from '../../lib/outbox/use-outbox.ts';

// The buttons' code is a chunk of its own, fetched as the app starts (Retry answer must work offline later).
const DeliveryStatusView = lazyWithRetry(() => import('./delivery-status-view.tsx'), (m) => m.DeliveryStatusView);
DeliveryStatusView.preload();

type DeliveryStatusProps = { questionId: string };

/** The delivery actions of one question's async answer, from the outbox; nothing when the outbox holds none. */
export function DeliveryStatus({ questionId }: DeliveryStatusProps) {
  const outbox = useOutbox();
  const row = useOutboxRowForQuestion(questionId);
  if (!row) return null;
  return (
    <LazyBoundary>
      <DeliveryStatusView
        row={row}
        onRetry={() => void outbox.retry(row.id)}
        onDiscard={() => void outbox.discard(row.id)}
        onEdit={(text) => outbox.edit(row.id, text)}
      />
    </LazyBoundary>
  );
}
