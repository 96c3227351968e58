import { create } from 'zustand';

/** The search box's text: UI state, kept while the person moves between sessions. */
type SearchState = { query: string };

const useSearchStore = create<SearchState>(() => ({ query: '' }));

export const useSearchQuery = () => useSearchStore((s) => s.query);

export function searchQueryChanged(query: string): void {
  useSearchStore.setState({ query });
}

export function searchCleared(): void {
  useSearchStore.setState({ query: '' });
}
