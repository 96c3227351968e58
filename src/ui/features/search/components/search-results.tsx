import type { SearchResult } from '../../../../protocol/index.ts';
import { errorMessage } from '../../../lib/error-message.ts';
import { INBOX_PATH } from '../../../lib/inbox.ts';
import { Link, sessionPath } from '../../../lib/router.tsx';
import { groupBySession, useSearch } from '../api/search.ts';
import { Highlighted } from './highlighted.tsx';

const KIND_LABEL: Record<SearchResult['kind'], string> = { session: 'Title', message: 'Message', question: 'Question' };

/** Where a result opens: its session (the summary of a question is there), or the Inbox for a sessionless question. */
const hrefOf = (r: SearchResult) => (r.sessionKey ? sessionPath(r.sessionKey) : INBOX_PATH);

/** U19: results grouped by session, each with its match marked; choosing one opens where it is. */
export function SearchResults({ query, onOpen }: { query: string; onOpen: () => void }) {
  const search = useSearch(query);
  const groups = groupBySession(search.data ?? []);
  return (
    <section aria-label="Search results" className="search-results" aria-busy={search.isFetching}>
      {search.isError && <p className="inline-error search-note">Search failed: {errorMessage(search.error)}</p>}
      {search.isPending && search.isFetching && <p className="muted search-note">Searching…</p>}
      {search.isSuccess && groups.length === 0 && <p className="muted search-note">No matches for “{query.trim()}”.</p>}
      {groups.map((group) => (
        <div key={group.sessionKey ?? '~inbox'} className="search-group">
          <h3 className="search-group-title">{group.title || 'Untitled session'}</h3>
          <ul className="search-hits">
            {group.results.map((r) => (
              <li key={`${r.kind}:${r.id}`}>
                <Link to={hrefOf(r)} className="search-hit" onClick={onOpen}>
                  <span className="search-hit-kind">{KIND_LABEL[r.kind]}</span>
                  <span className="search-hit-text">
                    <Highlighted text={r.snippet} ranges={r.highlights} />
                  </span>
                </Link>
              </li>
            ))}
          </ul>
        </div>
      ))}
    </section>
  );
}
