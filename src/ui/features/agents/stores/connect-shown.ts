import { useEffect } from 'react';
import { create } from 'zustand';

/**
 * U18: how many "Connect an agent" panels the page shows itself (an admin's empty state). While one is on the page,
 * the top bar's button of the same name steps aside: the words then name one thing, and what it opens is already there.
 */
const useShown = create<{ panels: number }>(() => ({ panels: 0 }));

export const useConnectPanelShown = (): boolean => useShown((s) => s.panels > 0);

/** Counts the calling panel as shown while it is mounted. */
export function useShowsConnectPanel(): void {
  useEffect(() => {
    useShown.setState((s) => ({ panels: s.panels + 1 }));
    return () => useShown.setState((s) => ({ panels: s.panels - 1 }));
  }, []);
}
