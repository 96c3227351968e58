import { ScrollArea as RadixScrollArea } from 'radix-ui';
import type { ReactNode } from 'react';

/** A scroll container with a slim, themed scrollbar; native scrolling and keys underneath. */
export function ScrollArea({ children, className }: { children: ReactNode; className?: string }) {
  return (
    <RadixScrollArea.Root className={['scroll-area', className].filter(Boolean).join(' ')} type="hover">
      <RadixScrollArea.Viewport className="scroll-area-viewport">{children}</RadixScrollArea.Viewport>
      <RadixScrollArea.Scrollbar className="scroll-area-scrollbar" orientation="vertical">
        <RadixScrollArea.Thumb className="scroll-area-thumb" />
      </RadixScrollArea.Scrollbar>
    </RadixScrollArea.Root>
  );
}
