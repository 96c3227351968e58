import { create } from 'zustand';

/** Whether the sessions list is unfolded on narrow screens (wide screens always show it). */
const useSessionsPanelStore = create<{ open: boolean }>()(() => ({ open: false }));

export const useSessionsPanelOpen = () => useSessionsPanelStore((s) => s.open);

export function sessionsPanelToggled() {
  useSessionsPanelStore.setState((s) => ({ open: !s.open }));
}

/** Picking a session folds the list away so the chat is in view again. */
export function sessionPicked() {
  useSessionsPanelStore.setState({ open: false });
}
