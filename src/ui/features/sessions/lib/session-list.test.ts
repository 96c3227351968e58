import { describe, expect, it } from 'vitest';
import type { Session } from '../../../../protocol/index.ts';
import { groupByDay, sessionTitle, sortSessions, upsertSession } from './session-list.ts';

const session = (key: string, createdAtMs: number, lastMessageAtMs: number | null = null): Session => ({
  key,
  title: key,
  createdBy: 'op',
  agentId: 'agent',
  createdAtMs,
  lastMessageAtMs,
  pendingQuestions: 0,
});

describe('session list', () => {
  it('puts the most recently active session first', () => {
    const sorted = sortSessions([session('a', 1, 50), session('b', 10), session('c', 5, 100)]);
    expect(sorted.map((s) => s.key)).toEqual(['c', 'a', 'b']);
  });

  it('replaces a session by key instead of adding it twice', () => {
    const list = upsertSession([session('a', 1), session('b', 2)], { ...session('a', 1, 9), pendingQuestions: 2 });
    expect(list.map((s) => [s.key, s.pendingQuestions])).toEqual([
      ['a', 2],
      ['b', 0],
    ]);
  });

  it('adds to an empty cache', () => {
    expect(upsertSession(undefined, session('x', 1))).toHaveLength(1);
  });

  it('names an untitled session', () => {
    expect(sessionTitle({ title: '  ' })).toBe('Untitled session');
  });

  it('[U15] groups the sorted list by last activity: Today, Yesterday, Earlier, leaving empty groups out', () => {
    const now = new Date(2026, 11, 3, 9, 30).getTime();
    const at = (d: number, h: number) => new Date(2026, 11, d, h).getTime();
    const list = sortSessions([session('t', at(3, 1)), session('y', at(1, 9), at(2, 23)), session('e', at(2, 0) - 1), session('t2', at(1, 1), at(3, 0))]);
    expect(groupByDay(list, now).map((g) => [g.label, g.sessions.map((s) => s.key)])).toEqual([
      ['Today', ['t', 't2']],
      ['Yesterday', ['y']],
      ['Earlier', ['e']],
    ]);
    expect(groupByDay([session('e', at(1, 1))], now).map((g) => g.label)).toEqual(['Earlier']);
  });
});
