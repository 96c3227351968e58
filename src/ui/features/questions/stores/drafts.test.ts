// @vitest-environment jsdom
import { beforeEach, describe, expect, it } from 'vitest';
import { resetStores } from '../test-helpers.tsx';
import { DRAFTS_STORAGE_KEY, migratePersisted, readPersisted, useDraftsStore } from './drafts.ts';

const actions = () => useDraftsStore.getState().actions;
const item = (record: string, id: string) => useDraftsStore.getState().drafts[record]?.items[id];

beforeEach(resetStores);

describe('drafts store', () => {
  it('[U4] on single-select the last action wins between an option and Other text', () => {
    actions().optionPicked('r', 'env', 'Production', false);
    actions().otherTextChanged('r', 'env', ' ', false);
    expect(item('r', 'env')).toEqual({ chosen: ['Production'], other: ' ' });
    actions().otherTextChanged('r', 'env', 'Production', false);
    expect(item('r', 'env')).toEqual({ chosen: [], other: 'Production' });
    actions().optionPicked('r', 'env', 'Staging', false);
    expect(item('r', 'env')).toEqual({ chosen: ['Staging'], other: '' });
  });

  it('[U4] multi-select toggles choices and keeps Other text beside them', () => {
    actions().optionPicked('r', 'n', 'Email', true);
    actions().optionPicked('r', 'n', 'Slack', true);
    actions().otherTextChanged('r', 'n', 'ops', true);
    actions().optionPicked('r', 'n', 'Email', true);
    expect(item('r', 'n')).toEqual({ chosen: ['Slack'], other: 'ops' });
  });

  it('[U6] drafts persist to localStorage with a version, and a reload reads them back', async () => {
    actions().otherTextChanged('r', 'env', 'Staging (Recommended)', false);
    actions().stepChanged('r', 1);
    const stored = JSON.parse(localStorage.getItem(DRAFTS_STORAGE_KEY)!);
    expect(stored.version).toBe(2);
    expect(stored.state).not.toHaveProperty('actions');
    useDraftsStore.setState({ drafts: {} });
    localStorage.setItem(DRAFTS_STORAGE_KEY, JSON.stringify(stored));
    await useDraftsStore.persist.rehydrate();
    expect(item('r', 'env')).toEqual({ chosen: [], other: 'Staging (Recommended)' });
    expect(useDraftsStore.getState().drafts.r.step).toBe(1);
  });

  it('[U6] unreadable or foreign stored data starts empty instead of breaking the dock', async () => {
    expect(readPersisted({ drafts: { r: { items: { a: { chosen: 'x' } } } } })).toEqual({ drafts: {}, answeredHere: {} });
    localStorage.setItem(DRAFTS_STORAGE_KEY, JSON.stringify({ state: { drafts: 42 }, version: 0 }));
    await useDraftsStore.persist.rehydrate();
    expect(useDraftsStore.getState().drafts).toEqual({});
    expect(typeof useDraftsStore.getState().actions.optionPicked).toBe('function');
  });

  it('[U6] version 1 storage migrates: drafts kept, bare answered times dropped', () => {
    const draft = { items: { env: { chosen: [], other: 'x' } }, step: 0, touchedAtMs: Date.now() };
    expect(migratePersisted({ drafts: { r: draft }, answeredHere: { r: 5 } }, 1)).toEqual({ drafts: { r: draft }, answeredHere: {} });
    expect(migratePersisted('garbage', 1)).toEqual({ drafts: {}, answeredHere: {} });
  });

  it('[Q5] the resolution id is made once per draft, so a retried submit is the same resolve', () => {
    const first = actions().submitStarted('r', { env: ['Production'] });
    expect(actions().submitStarted('r', { env: ['Production'] })).toBe(first);
    actions().submitRejected('r', { terminal: false });
    expect(actions().submitStarted('r', { env: ['Production'] })).toBe(first);
    actions().submitSucceeded('r');
    expect(useDraftsStore.getState().drafts.r).toBeUndefined();
    expect(useDraftsStore.getState().answeredHere.r.answers).toBe('[["env",["production"]]]');
  });

  it('[U10] drafts typed in another tab of the conversation show here too (the storage event)', async () => {
    const draft = { items: { lunch: { chosen: ['Sushi'], other: '' } }, step: 0, touchedAtMs: Date.now() };
    localStorage.setItem(DRAFTS_STORAGE_KEY, JSON.stringify({ version: 2, state: { drafts: { q: draft }, answeredHere: {} } }));
    window.dispatchEvent(new StorageEvent('storage', { key: DRAFTS_STORAGE_KEY }));
    await expect.poll(() => item('q', 'lunch')).toEqual({ chosen: ['Sushi'], other: '' });
    // Another key changing leaves this store alone.
    useDraftsStore.setState({ drafts: {} });
    window.dispatchEvent(new StorageEvent('storage', { key: 'something-else' }));
    await Promise.resolve();
    expect(item('q', 'lunch')).toBeUndefined();
  });

  it('[U9] an async answer queued keeps its draft (Discard reopens it) and marks what was sent; a lost draft can be restored', () => {
    actions().optionPicked('q', 'lunch', 'Sushi', false);
    actions().asyncAnswerQueued('q', { lunch: ['Sushi'] });
    expect(item('q', 'lunch')).toEqual({ chosen: ['Sushi'], other: '' });
    expect(useDraftsStore.getState().answeredHere.q.answers).toBe('[["lunch",["sushi"]]]');
    actions().draftRestored('q', { lunch: { chosen: ['Salad'], other: '' } });
    expect(item('q', 'lunch')).toEqual({ chosen: ['Sushi'], other: '' });
    actions().draftDiscarded('q');
    actions().draftRestored('q', { lunch: { chosen: ['Salad'], other: '' } });
    expect(item('q', 'lunch')).toEqual({ chosen: ['Salad'], other: '' });
  });
});
