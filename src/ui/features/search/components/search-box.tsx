import { useEffect, useId, useRef, type KeyboardEvent, type RefObject } from 'react';
import '../search.css';
import { lazyWithRetry } from '../../../lib/lazy-with-retry.ts';
import { LazyBoundary } from '../../../components/lazy-boundary.tsx';
import { searchCleared, searchQueryChanged, useSearchQuery } from '../stores/search-store.ts';

// The results and their query code load when someone first types, not with the first screen.
const SearchResults = lazyWithRetry(() => import('./search-results.tsx'), (m) => m.SearchResults);

const TEXT_FIELD = 'input, textarea, select, [contenteditable="true"], [role="dialog"]';

/** U19: `/` anywhere outside a text field puts the cursor in the search box. */
function useSlashToSearch(input: RefObject<HTMLInputElement | null>) {
  useEffect(() => {
    const onKeyDown = (event: globalThis.KeyboardEvent) => {
      if (event.key !== '/' || event.ctrlKey || event.metaKey || event.altKey || event.isComposing) return;
      const target = event.target;
      if (target instanceof HTMLElement && target.closest(TEXT_FIELD)) return;
      event.preventDefault();
      input.current?.focus();
      input.current?.select();
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [input]);
}

/** The search box over sessions, messages and questions (U19), with its results under it while there are words. */
export function SearchBox() {
  const query = useSearchQuery();
  const input = useRef<HTMLInputElement>(null);
  const hintId = useId();
  useSlashToSearch(input);

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key !== 'Escape') return;
    event.preventDefault();
    if (query) searchCleared();
    else input.current?.blur();
  };

  return (
    <div className="search">
      <form role="search" className="search-form" onSubmit={(event) => event.preventDefault()}>
        <input
          ref={input}
          type="search"
          className="search-input"
          aria-label="Search"
          aria-describedby={hintId}
          placeholder="Search"
          autoComplete="off"
          spellCheck={false}
          value={query}
          onChange={(event) => searchQueryChanged(event.target.value)}
          onKeyDown={onKeyDown}
        />
        <kbd className="search-kbd" id={hintId} aria-label="Press slash to search">
          /
        </kbd>
      </form>
      {query.trim() !== '' && (
        <LazyBoundary pending={<p className="muted search-note">Searching…</p>}>
          <SearchResults query={query} onOpen={searchCleared} />
        </LazyBoundary>
      )}
    </div>
  );
}
