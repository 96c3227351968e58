import { createContext, useContext, useSyncExternalStore, type ComponentType, type ReactNode } from 'react';
import { Listeners } from '../../lib/listeners.ts';

/** What the app hands to whatever renders the composer (U14). */
export type ComposerSlotProps = {
  /** The open session. */
  sessionKey: string;
  /** Sends one chat message in the session; rejects with the gateway's error when it was not sent. */
  send: (text: string) => Promise<void>;
  /** A slash command typed in the composer (e.g. `/question` reopens the question dock). */
  onCommand: (command: string) => void;
  /** True when the gateway connection has given up (bad token); while reconnecting, sends wait in the client. */
  disabled: boolean;
  /** Take keyboard focus on mount (a session just made with New session). */
  autoFocus?: boolean;
  /** Typed before this composer mounted (a session just made with New session); a replacement may start with it. */
  initialText?: string;
  /** Enter was pressed after `initialText`: the composer sends it once mounted. */
  sendInitial?: boolean;
};

/** A composer replacement: a component, so it may use hooks and keep its own state. */
export type ComposerSlot = ComponentType<ComposerSlotProps>;

let registered: ComposerSlot | null = null;
const listeners = new Listeners();
const emit = () => listeners.emit();
const subscribe = (listener: () => void) => listeners.add(listener);

/**
 * Replaces the composer from outside React (a plugin loaded before or after the app starts).
 * Returns a function that removes this replacement again.
 */
export function registerComposerSlot(slot: ComposerSlot): () => void {
  registered = slot;
  emit();
  return () => {
    if (registered !== slot) return;
    registered = null;
    emit();
  };
}

const ComposerSlotContext = createContext<ComposerSlot | null>(null);

/** Gives a composer replacement to the tree below (what the `composerSlot` prop of `App` feeds). */
export function ComposerSlotProvider({ slot, children }: { slot?: ComposerSlot; children: ReactNode }) {
  return <ComposerSlotContext.Provider value={slot ?? null}>{children}</ComposerSlotContext.Provider>;
}

/** The composer to render: the provider's, else a registered one, else `fallback` (the built-in composer). */
export function useComposerSlot(fallback: ComposerSlot): ComposerSlot {
  const fromContext = useContext(ComposerSlotContext);
  const fromRegistry = useSyncExternalStore(subscribe, () => registered);
  return fromContext ?? fromRegistry ?? fallback;
}
