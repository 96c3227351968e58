// @vitest-environment jsdom
import { beforeEach, describe, expect, it, vi } from 'vitest';

// The drafts' chunk as the network lets it through: the next `failures` fetches fail as `import()` does when it drops.
const chunk = { failures: 0, applied: [] as string[] };
const draftChanges = () => {
  if (chunk.failures > 0) {
    chunk.failures -= 1;
    throw new TypeError('Failed to fetch dynamically imported module');
  }
  return {
    discardDraft: (id: string) => chunk.applied.push(`discard ${id}`),
    restoreDiscardedDraft: (record: { id: string }) => chunk.applied.push(`restore ${record.id}`),
  };
};

beforeEach(() => {
  vi.resetModules();
  vi.doMock('./draft-changes.ts', draftChanges); // afresh: a chunk a test loaded is not in the next test's tab
  chunk.applied = [];
});

// Real timers: a failed fetch is tried again a second later (retrying-import.ts), the waits below are bounds, not speeds.
const WITHIN = { timeout: 15_000, interval: 50 };

/** A fresh tab's later-drafts.ts once both its tries at the drafts' chunk failed (the app connects anyway). */
async function tabWhoseDraftsFailed(laterFailures: number) {
  chunk.failures = 2 + laterFailures;
  const later = await import('./later-drafts.ts');
  await later.draftChangesReady;
  expect(chunk.failures).toBe(laterFailures);
  // The instance later-drafts.ts listens to (modules are fresh for each test).
  const { retryFailedImports } = await import('../../../lib/retrying-import.ts');
  return { ...later, retryFailedImports };
}

describe("draft changes while the drafts' code cannot be fetched (U6, U9, U11)", () => {
  it("[U11][U6] a resolved question's discard made meanwhile waits, and applies once a reconnect brings the code in", { timeout: 30_000 }, async () => {
    const { withDrafts, retryFailedImports } = await tabWhoseDraftsFailed(2);
    withDrafts((drafts) => drafts.discardDraft('q1'));
    await vi.waitFor(() => expect(chunk.failures).toBe(0), WITHIN); // the change's own fetch fails twice too
    expect(chunk.applied).toEqual([]);

    await vi.waitFor(() => {
      retryFailedImports(); // the gateway connection comes back
      expect(chunk.applied).toEqual(['discard q1']);
    }, WITHIN);
  });

  it('[U11][U9] changes that wait apply in the order they were made, fetched again after a while with no reconnect', { timeout: 30_000 }, async () => {
    const { withDrafts } = await tabWhoseDraftsFailed(2);
    withDrafts((drafts) => drafts.restoreDiscardedDraft({ id: 'q1' } as never, {} as never));
    withDrafts((drafts) => drafts.discardDraft('q2'));
    await vi.waitFor(() => expect(chunk.failures).toBe(0), WITHIN);
    expect(chunk.applied).toEqual([]);

    await vi.waitFor(() => expect(chunk.applied).toEqual(['restore q1', 'discard q2']), WITHIN);
    withDrafts((drafts) => drafts.discardDraft('q3'));
    expect(chunk.applied).toEqual(['restore q1', 'discard q2', 'discard q3']);
  });
});
