import { VisuallyHidden } from './visually-hidden.tsx';

/** How many questions wait in a list row; read out as "3 questions pending" (never containing
 * the collapsed dock's "N pending" (U8), so that text names one thing on the page). Nothing when none wait. */
export function PendingBadge({ count }: { count: number }) {
  if (count <= 0) return null;
  return (
    <span className="badge">
      {count}
      <VisuallyHidden>{count === 1 ? ' question pending' : ' questions pending'}</VisuallyHidden>
    </span>
  );
}
