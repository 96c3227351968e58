// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SOON_MS } from '../../../lib/retrying-import.ts';

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

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

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

/**
 * The same tab with setTimeout faked, so no timer runs unless the test moves time on: the quick second try
 * (retrying-import.ts) runs when told, the backoff of later-drafts.ts never. Everything else (the module loads) is real.
 */
async function tabWhoseDraftsFailedOnFakeTimers(laterFailures: number) {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  chunk.failures = 2 + laterFailures;
  const later = await import('./later-drafts.ts');
  await bothTriesFail();
  await later.draftChangesReady;
  const { retryFailedImports } = await import('../../../lib/retrying-import.ts');
  return { ...later, retryFailedImports };
}

/** Waits for `check` over turns of the event loop (module loads), never moving fake time on. */
async function until(check: () => void, turns = 5000) {
  for (let turn = 0; ; turn++) {
    try {
      return check();
    } catch (err) {
      if (turn >= turns) throw err;
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
}

/** A load's first try fails, then the quick second try: two fewer failures left, and the load has given up. */
async function bothTriesFail() {
  const before = chunk.failures;
  await until(() => expect(vi.getTimerCount()).toBeGreaterThan(0)); // the quick second try, waiting
  await vi.advanceTimersByTimeAsync(SOON_MS);
  await until(() => expect(chunk.failures).toBe(before - 2));
}

describe("draft changes while the drafts' code cannot be fetched (U6, U9, U11)", () => {
  it("[U11][U6] a resolved question's discard made meanwhile waits, and applies once a reconnect brings the code in", async () => {
    const { withDrafts, retryFailedImports } = await tabWhoseDraftsFailedOnFakeTimers(2);
    withDrafts((drafts) => drafts.discardDraft('q1'));
    await bothTriesFail(); // the change's own fetch fails twice too
    expect(chunk.applied).toEqual([]);
    expect(vi.getTimerCount()).toBe(1); // the backoff's own retry, which fake time keeps from running

    retryFailedImports(); // the gateway connection comes back
    await until(() => expect(chunk.applied).toEqual(['discard q1']));
  });

  it('[U6] a waiting change that throws as it applies: the ones made after it still apply, and the error is reported', async () => {
    const report = vi.spyOn(console, 'error').mockImplementation(() => {});
    const { withDrafts, retryFailedImports } = await tabWhoseDraftsFailedOnFakeTimers(2);
    withDrafts((drafts) => drafts.discardDraft('q1'));
    withDrafts(() => {
      throw new Error('broken change');
    });
    withDrafts((drafts) => drafts.discardDraft('q2'));
    await bothTriesFail();

    retryFailedImports();
    await until(() => expect(chunk.applied).toEqual(['discard q1', 'discard q2']));
    expect(report).toHaveBeenCalledWith('A draft change could not be applied', new Error('broken change'));
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
