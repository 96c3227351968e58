import type { ReactNode } from 'react';

/**
 * A scroll container with a slim, themed scrollbar: the browser's own scrolling, keys and scrollbar (styled in CSS),
 * so no script runs for it on the first screen.
 */
export function ScrollArea({ children, className }: { children: ReactNode; className?: string }) {
  return <div className={['scroll-area', className].filter(Boolean).join(' ')}>{children}</div>;
}
