// @vitest-environment jsdom
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { oneOf, severalOf } from '../../../../testing/question-items.ts';
import { answersFingerprint, SKIP_FINGERPRINT } from '../lib/resolved-here.ts';
import { DRAFTS_STORAGE_KEY, LINK_PAGE_STORAGE_KEY, migratePersisted, readPersisted, useDraftsStore, withLinkPageData } from './drafts.ts';

const actions = () => useDraftsStore.getState().actions;
const item = (record: string, id: string) => useDraftsStore.getState().drafts[record]?.items[id];
const sent = (record: string) => useDraftsStore.getState().sent[record]?.answers;

beforeEach(() => {
  localStorage.clear();
  useDraftsStore.setState({ drafts: {}, sent: {} });
});

describe('question drafts, shared by the dock and the link page', () => {
  it('[U4] on single-select the last action wins between an option and Other text', () => {
    actions().optionPicked('r', oneOf('env'), 'Production');
    actions().otherTextChanged('r', oneOf('env'), ' ');
    expect(item('r', 'env')).toEqual({ chosen: ['Production'], other: ' ' });
    actions().otherTextChanged('r', oneOf('env'), 'Production');
    expect(item('r', 'env')).toEqual({ chosen: [], other: 'Production' });
    actions().optionPicked('r', oneOf('env'), 'Staging');
    expect(item('r', 'env')).toEqual({ chosen: ['Staging'], other: '' });
  });

  it('[U4] multi-select toggles choices and keeps Other text beside them', () => {
    actions().optionPicked('r', severalOf('n'), 'Email');
    actions().optionPicked('r', severalOf('n'), 'Slack');
    actions().otherTextChanged('r', severalOf('n'), 'ops');
    actions().optionPicked('r', severalOf('n'), 'Email');
    expect(item('r', 'n')).toEqual({ chosen: ['Slack'], other: 'ops' });
  });

  it('[U6][U11] drafts persist to localStorage with a version, and a reload reads them back', async () => {
    actions().otherTextChanged('r', oneOf('env'), 'Staging (Recommended)');
    actions().stepChanged('r', 1);
    const stored = JSON.parse(localStorage.getItem(DRAFTS_STORAGE_KEY)!);
    expect(stored.version).toBe(3);
    expect(stored.state).not.toHaveProperty('actions');
    // Clearing the store writes an empty state; put back what a reload would find.
    useDraftsStore.setState({ drafts: {} });
    localStorage.setItem(DRAFTS_STORAGE_KEY, JSON.stringify(stored));
    await useDraftsStore.persist.rehydrate();
    expect(item('r', 'env')).toEqual({ chosen: [], other: 'Staging (Recommended)' });
    expect(useDraftsStore.getState().drafts.r.step).toBe(1);
  });

  it('[U6] unreadable or foreign stored data starts empty instead of breaking the dock or the page', async () => {
    expect(readPersisted({ drafts: { r: { items: { a: { chosen: 'x' } } } } })).toEqual({ drafts: {}, sent: {} });
    localStorage.setItem(DRAFTS_STORAGE_KEY, JSON.stringify({ state: { drafts: 42 }, version: 0 }));
    await useDraftsStore.persist.rehydrate();
    expect(useDraftsStore.getState().drafts).toEqual({});
    expect(typeof useDraftsStore.getState().actions.optionPicked).toBe('function');
  });

  it('[U6] older storage migrates: drafts kept; version 2 fingerprints become lists, a skip its own mark; version 1 times go', async () => {
    const draft = { items: { env: { chosen: [], other: 'x' } }, step: 0, touchedAtMs: Date.now() };
    const v2 = { drafts: { r: draft }, answeredHere: { r: { atMs: 5, answers: '[["env",["x"]]]' }, s: { atMs: 6, answers: '[]' } } };
    expect(migratePersisted(v2, 2)).toEqual({
      drafts: { r: draft },
      sent: { r: { atMs: 5, answers: ['[["env",["x"]]]'] }, s: { atMs: 6, answers: [SKIP_FINGERPRINT] } },
    });
    expect(migratePersisted({ drafts: { r: draft }, answeredHere: { r: 5 } }, 1)).toEqual({ drafts: { r: draft }, sent: {} });
    expect(migratePersisted('garbage', 1)).toEqual({ drafts: {}, sent: {} });
    expect(migratePersisted({ drafts: 'garbage' }, 2)).toEqual({ drafts: {}, sent: {} });
    // Through the store, as a reload after the upgrade meets it.
    localStorage.setItem(DRAFTS_STORAGE_KEY, JSON.stringify({ version: 2, state: v2 }));
    await useDraftsStore.persist.rehydrate();
    expect(item('r', 'env')).toEqual({ chosen: [], other: 'x' });
    expect(JSON.parse(localStorage.getItem(DRAFTS_STORAGE_KEY)!).version).toBe(3);
  });

  it('[U11] what the link page kept in its own old store moves in once: the newer draft wins, sent marks add up', async () => {
    const now = Date.now();
    const dockDraft = { items: { env: { chosen: ['Staging'], other: '' } }, step: 1, touchedAtMs: now - 1000 };
    const linkDraft = { items: { env: { chosen: [], other: 'typed on the link page' } }, resolutionId: 'link-1', touchedAtMs: now };
    const merged = withLinkPageData(
      { drafts: { r: dockDraft }, sent: { r: { atMs: 1, answers: ['a'] } } },
      { drafts: { r: linkDraft, old: { ...linkDraft, touchedAtMs: now - 15 * 24 * 3600_000 } }, sent: { r: { atMs: 2, answers: ['a', SKIP_FINGERPRINT] } } },
    );
    expect(merged).toEqual({ drafts: { r: { ...linkDraft, step: 1 } }, sent: { r: { atMs: 2, answers: ['a', SKIP_FINGERPRINT] } } });
    expect(withLinkPageData({ drafts: {}, sent: {} }, 'garbage')).toEqual({ drafts: {}, sent: {} });

    // At start-up, as the first load after the upgrade finds it.
    localStorage.setItem(LINK_PAGE_STORAGE_KEY, JSON.stringify({ version: 1, state: { drafts: { r: linkDraft }, sent: {} } }));
    vi.resetModules();
    const fresh = await import('./drafts.ts');
    expect(fresh.useDraftsStore.getState().drafts.r?.items.env).toEqual({ chosen: [], other: 'typed on the link page' });
    expect(localStorage.getItem(LINK_PAGE_STORAGE_KEY)).toBeNull();
    expect(JSON.parse(localStorage.getItem(DRAFTS_STORAGE_KEY)!).state.drafts.r.items.env.other).toBe('typed on the link page');
  });

  it('[Q5] one resolution id per draft, whichever surface sends: a retry is the same resolve; every try is remembered as ours', () => {
    const first = actions().submitStarted('r', { env: ['Staging'] });
    expect(actions().submitStarted('r', { env: ['Production'] })).toBe(first);
    expect(sent('r')).toEqual([answersFingerprint({ env: ['Staging'] }), answersFingerprint({ env: ['Production'] })]);
    actions().submitSucceeded('r');
    expect(useDraftsStore.getState().drafts.r).toBeUndefined();
    expect(actions().submitStarted('r', 'skip')).not.toBe(first);
    expect(sent('r')).toContain(SKIP_FINGERPRINT);
  });

  it('[U11] a record that ended elsewhere leaves no draft behind', () => {
    actions().otherTextChanged('r', oneOf('env'), 'too late');
    actions().draftDiscarded('r');
    expect(useDraftsStore.getState().drafts.r).toBeUndefined();
  });

  it('[U11] dropping a draft already dropped writes nothing to storage; a value another tab wrote is still replaced', () => {
    actions().otherTextChanged('r', oneOf('env'), 'sent');
    actions().draftDiscarded('r');
    const writes = vi.spyOn(Storage.prototype, 'setItem');
    actions().submitSucceeded('r');
    expect(writes).not.toHaveBeenCalled();
    localStorage.setItem(DRAFTS_STORAGE_KEY, '{"written":"by another tab"}');
    writes.mockClear();
    actions().draftDiscarded('r');
    expect(writes).toHaveBeenCalledTimes(1);
    expect(JSON.parse(localStorage.getItem(DRAFTS_STORAGE_KEY)!).state.drafts).toEqual({});
    writes.mockRestore();
  });

  it('[U10] drafts typed in another tab (the conversation, or the same link) show here too (the storage event)', async () => {
    const draft = { items: { lunch: { chosen: ['Sushi'], other: '' } }, step: 0, touchedAtMs: Date.now() };
    localStorage.setItem(DRAFTS_STORAGE_KEY, JSON.stringify({ version: 3, state: { drafts: { q: draft }, sent: {} } }));
    window.dispatchEvent(new StorageEvent('storage', { key: DRAFTS_STORAGE_KEY }));
    await expect.poll(() => item('q', 'lunch')).toEqual({ chosen: ['Sushi'], other: '' });
    // Another key changing leaves this store alone.
    useDraftsStore.setState({ drafts: {} });
    window.dispatchEvent(new StorageEvent('storage', { key: 'something-else' }));
    await Promise.resolve();
    expect(item('q', 'lunch')).toBeUndefined();
  });

  it('[U10][U11] another tab writing before it read our answer does not make this tab forget it (no false "Answered elsewhere")', async () => {
    // This tab (the link page) sends an answer; the conversation tab, still holding the older state, drops a draft
    // of the same record and writes its whole state without this tab's mark.
    actions().submitStarted('q', { env: ['Staging'] });
    const mine = answersFingerprint({ env: ['Staging'] });
    const stale = { drafts: {}, sent: { other: { atMs: Date.now(), answers: [SKIP_FINGERPRINT] } } };
    localStorage.setItem(DRAFTS_STORAGE_KEY, JSON.stringify({ version: 3, state: stale }));
    window.dispatchEvent(new StorageEvent('storage', { key: DRAFTS_STORAGE_KEY }));
    await expect.poll(() => sent('other')).toEqual([SKIP_FINGERPRINT]);
    expect(sent('q')).toEqual([mine]);
    // Its drafts still follow the other tab's write: the record's draft is gone there, so here too.
    expect(useDraftsStore.getState().drafts.q).toBeUndefined();
  });

  it('[U9] an async answer queued keeps its draft (Discard reopens it) and marks what was sent; a lost draft can be restored', () => {
    actions().optionPicked('q', oneOf('lunch'), 'Sushi');
    actions().asyncAnswerQueued('q', { lunch: ['Sushi'] });
    expect(item('q', 'lunch')).toEqual({ chosen: ['Sushi'], other: '' });
    expect(sent('q')).toEqual(['[["lunch",["sushi"]]]']);
    actions().draftRestored('q', { lunch: { chosen: ['Salad'], other: '' } });
    expect(item('q', 'lunch')).toEqual({ chosen: ['Sushi'], other: '' });
    actions().draftDiscarded('q');
    actions().draftRestored('q', { lunch: { chosen: ['Salad'], other: '' } });
    expect(item('q', 'lunch')).toEqual({ chosen: ['Salad'], other: '' });
  });
});

describe('record and question ids named like Object.prototype members', () => {
  it('[U6][Q5] a record `toString` with a question `constructor` keeps its own draft', () => {
    useDraftsStore.setState({ drafts: {}, sent: {} });
    const { actions } = useDraftsStore.getState();
    actions.optionPicked('toString', severalOf('constructor'), 'Email');
    actions.optionPicked('toString', severalOf('constructor'), 'Slack');
    actions.otherTextChanged('constructor', oneOf('constructor'), 'typed');
    expect(item('toString', 'constructor')).toEqual({ chosen: ['Email', 'Slack'], other: '' });
    expect(item('constructor', 'constructor')).toEqual({ chosen: [], other: 'typed' });
    actions.submitSucceeded('valueOf');
    expect(Object.keys(useDraftsStore.getState().drafts).sort()).toEqual(['constructor', 'toString']);
  });
});
