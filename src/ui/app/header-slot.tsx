import type { ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { create } from 'zustand';
import { useNarrow } from '../features/questions/hooks/use-narrow.ts';

/** The top bar's middle, where a page's title row goes on narrow screens (one bar there, not three). */
const useSlotStore = create<{ slot: HTMLElement | null }>()(() => ({ slot: null }));
const slotRef = (slot: HTMLElement | null) => useSlotStore.setState({ slot });

export function HeaderSlot() {
  return <div className="app-header-slot" ref={slotRef} />;
}

/** In place on wide screens; under 640 px inside the top bar, beside the menu button and the connection state. */
export function InTopBarWhenNarrow({ children }: { children: ReactNode }) {
  const slot = useSlotStore((s) => s.slot);
  const narrow = useNarrow();
  return narrow && slot ? createPortal(children, slot) : children;
}
