import { retryingImport } from '../../../lib/retrying-import.ts';
import type * as DraftChanges from './draft-changes.ts';

type Change = (drafts: typeof DraftChanges) => void;

// The drafts store and the answer readers stay out of the first load: only a request's panel reads them, and the
// changes below arrive with socket events or outbox discards, after the app has connected.
const changes = retryingImport(() => import('./draft-changes.ts'));

/** Settles once the drafts' code is in (or its first load failed): the app connects only then, as for the dock's panels. */
export const draftChangesReady: Promise<void> = changes.load().then(
  () => undefined,
  () => undefined,
);

/** The first wait before fetching the drafts' code again for changes that wait on it; doubled each time, up to a minute. */
export const RETRY_FIRST_MS = 2000;
const RETRY_MOST_MS = 60_000;

/** Changes made while the drafts' code could not be fetched, in order: none is dropped, all apply once it is in. */
const waiting: Change[] = [];
let retryMs = RETRY_FIRST_MS;
let retryTimer: ReturnType<typeof setTimeout> | undefined;

function applyWaiting(): void {
  const attempt = changes.current();
  if (attempt.status === 'fulfilled') {
    for (const change of waiting.splice(0)) {
      // One change that throws neither stops nor loses the ones made after it.
      try {
        change(attempt.value);
      } catch (err) {
        console.error('A draft change could not be applied', err);
      }
    }
  } else if (attempt.status === 'rejected' && waiting.length > 0 && retryTimer === undefined) {
    // Besides the next change, the window coming back online and a reconnect (retrying-import.ts): a backoff of its own.
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      retryMs = Math.min(retryMs * 2, RETRY_MOST_MS);
      changes.load();
    }, retryMs);
  }
}
changes.subscribe(applyWaiting);

/**
 * Makes `change` at once when the drafts' code is in (it is before the app connects unless its fetch failed), else
 * keeps it, in order with any others, until the code is in (U6, U9: a discard or a restore is never lost).
 */
export function withDrafts(change: Change): void {
  waiting.push(change);
  changes.load(); // the load under way, or a new one if the last failed
  applyWaiting();
}
