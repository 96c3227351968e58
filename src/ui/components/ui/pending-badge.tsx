import { VisuallyHidden } from './visually-hidden.tsx';

/** How many questions wait in a list row; read out as "3 pending questions". Nothing when none wait. */
export function PendingBadge({ count }: { count: number }) {
  if (count <= 0) return null;
  return (
    <span className="badge">
      {count}
      <VisuallyHidden>{count === 1 ? ' pending question' : ' pending questions'}</VisuallyHidden>
    </span>
  );
}
