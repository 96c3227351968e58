import type { ReactNode } from 'react';
import { usePendingRequestCounts } from '../features/questions/index.tsx';
import { SearchBox } from '../features/search/components/search-box.tsx';
import { SessionsNav } from '../features/sessions/components/sessions-nav.tsx';

/**
 * The sessions list with the questions feature's counts. Read here rather than in the shell: every question event
 * changes the counts, and only the list shows them, so the page beside it is not drawn again for each one.
 */
// One element for every render: the counts change with each question, the search box never does.
const searchBox = <SearchBox />;

export function SessionsSidebar({ activeKey, first }: { activeKey?: string; first?: ReactNode }) {
  return <SessionsNav activeKey={activeKey} top={searchBox} first={first} pendingCounts={usePendingRequestCounts()} />;
}
