import { retryingImport } from '../../../lib/retrying-import.ts';
import type * as DraftChanges from './draft-changes.ts';

// The drafts store and the answer readers stay out of the first load: only a request's panel reads them, and the
// changes below arrive with socket events or outbox discards, after the app has connected.
const changes = retryingImport(() => import('./draft-changes.ts'));

/** Settles once the drafts' code is in (or its first load failed): the app connects only then, as for the dock's panels. */
export const draftChangesReady: Promise<void> = changes.load().then(
  () => undefined,
  () => undefined,
);

/** Makes `change` at once when the drafts' code is in (it is before the app connects), else as soon as it arrives. */
export function withDrafts(change: (drafts: typeof DraftChanges) => void): void {
  const attempt = changes.load();
  if (attempt.status === 'fulfilled') change(attempt.value);
  else void attempt.then(change, () => undefined);
}
