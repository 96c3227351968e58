// @vitest-environment jsdom
import { beforeEach, describe, expect, it } from 'vitest';
import { answersFingerprint, SKIP_FINGERPRINT } from './answers.ts';
import { LINK_DRAFTS_STORAGE_KEY, readPersisted, useLinkDraftsStore } from './link-drafts.ts';

const actions = () => useLinkDraftsStore.getState().actions;
const item = (record: string, id: string) => useLinkDraftsStore.getState().drafts[record]?.items[id];

beforeEach(() => {
  localStorage.clear();
  useLinkDraftsStore.setState({ drafts: {}, sent: {} });
});

describe('link page drafts', () => {
  it('[U4] single-select: the last action wins between an option and Other text; multi-select toggles beside Other', () => {
    actions().optionPicked('r', 'env', 'Production', false);
    actions().otherTextChanged('r', 'env', 'Production', false);
    expect(item('r', 'env')).toEqual({ chosen: [], other: 'Production' });
    actions().optionPicked('r', 'env', 'Staging', false);
    expect(item('r', 'env')).toEqual({ chosen: ['Staging'], other: '' });
    actions().optionPicked('r', 'n', 'Email', true);
    actions().otherTextChanged('r', 'n', 'ops', true);
    actions().optionPicked('r', 'n', 'Slack', true);
    actions().optionPicked('r', 'n', 'Email', true);
    expect(item('r', 'n')).toEqual({ chosen: ['Slack'], other: 'ops' });
  });

  it('[U11] what was typed is stored in localStorage and read back after a reload', async () => {
    actions().otherTextChanged('r', 'env', 'typed before the reload', false);
    const stored = JSON.parse(localStorage.getItem(LINK_DRAFTS_STORAGE_KEY)!);
    expect(stored.version).toBe(1);
    expect(stored.state).not.toHaveProperty('actions');
    // Clearing the store writes an empty state; put back what a reload would find.
    useLinkDraftsStore.setState({ drafts: {} });
    localStorage.setItem(LINK_DRAFTS_STORAGE_KEY, JSON.stringify(stored));
    await useLinkDraftsStore.persist.rehydrate();
    expect(item('r', 'env')).toEqual({ chosen: [], other: 'typed before the reload' });
  });

  it('[U11] unreadable stored data starts empty instead of breaking the page', async () => {
    expect(readPersisted({ drafts: { r: { items: { a: { chosen: 'x' } } } } })).toEqual({ drafts: {}, sent: {} });
    localStorage.setItem(LINK_DRAFTS_STORAGE_KEY, JSON.stringify({ state: { drafts: 7 }, version: 1 }));
    await useLinkDraftsStore.persist.rehydrate();
    expect(useLinkDraftsStore.getState().drafts).toEqual({});
    expect(typeof actions().optionPicked).toBe('function');
  });

  it('[Q5] one resolution id per draft: a retry after a failure is the same resolve; every try is remembered as ours', () => {
    const first = actions().submitStarted('r', { env: ['Staging'] });
    actions().submitRejected('r', { terminal: false });
    expect(actions().submitStarted('r', { env: ['Production'] })).toBe(first);
    expect(useLinkDraftsStore.getState().sent.r.answers).toEqual([
      answersFingerprint({ env: ['Staging'] }),
      answersFingerprint({ env: ['Production'] }),
    ]);
    actions().submitSucceeded('r');
    expect(useLinkDraftsStore.getState().drafts.r).toBeUndefined();
    expect(actions().submitStarted('r', 'skip')).not.toBe(first);
    expect(useLinkDraftsStore.getState().sent.r.answers).toContain(SKIP_FINGERPRINT);
  });

  it('[U11] a record that ended elsewhere leaves no draft behind', () => {
    actions().otherTextChanged('r', 'env', 'too late', false);
    actions().submitRejected('r', { terminal: true });
    expect(useLinkDraftsStore.getState().drafts.r).toBeUndefined();
  });
});
