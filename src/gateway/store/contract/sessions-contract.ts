import { beforeEach, describe, expect, it } from 'vitest';
import { sessionRow, message, question } from './contract-fixtures.ts';
import type { Store } from '../types.ts';

/** C1/A3/A6: sessions, their idempotency keys, pending counts and tallies; part of the store contract that store.contract.test.ts runs on every store. */
export function sessionsContract(current: () => Store): void {
  describe('sessions', () => {
    let store: Store;
    beforeEach(() => { store = current(); });

    it('[C1] creates a session and reads it back with no pending questions', async () => {
      await store.createSession(sessionRow('s1', 1_000));
      expect((await store.getSession('s1'))).toStrictEqual({ ...sessionRow('s1', 1_000), pendingQuestions: 0 });
      expect((await store.getSession('nope'))).toBeUndefined();
      expect((await store.listSessions())).toStrictEqual([{ ...sessionRow('s1', 1_000), pendingQuestions: 0 }]);
    });

    it('[A6] keeps the agent a session is bound to, or none', async () => {
      await store.createSession(sessionRow('s1', 1_000, { agentId: 'agent2' }));
      await store.createSession(sessionRow('s2', 2_000, { agentId: null }));
      expect((await store.getSession('s1'))?.agentId).toBe('agent2');
      expect((await store.getSession('s2'))?.agentId).toBeNull();
      expect((await store.listSessions()).map((s) => s.agentId)).toEqual([null, 'agent2']);
    });

    it('[A6] finds a session by the idempotency key of the identity that created it, and only that one', async () => {
      await store.createSession(sessionRow('s1', 1_000), { identity: 'agent', key: 'mcp-key-0001' });
      await store.createSession(sessionRow('s2', 2_000), { identity: 'agent2', key: 'mcp-key-0001' });
      await store.createSession(sessionRow('s3', 3_000));
      expect((await store.sessionByIdempotencyKey('agent', 'mcp-key-0001'))).toStrictEqual({ ...sessionRow('s1', 1_000), pendingQuestions: 0 });
      expect((await store.sessionByIdempotencyKey('agent2', 'mcp-key-0001'))?.key).toBe('s2');
      expect((await store.sessionByIdempotencyKey('op', 'mcp-key-0001'))).toBeUndefined();
      expect((await store.sessionByIdempotencyKey('agent', 'other-key-01'))).toBeUndefined();
    });

    it('[A6] refuses a second session under a used idempotency key, keeping neither half of it', async () => {
      await store.createSession(sessionRow('s1', 1_000), { identity: 'agent', key: 'mcp-key-0001' });
      await expect(async () => await store.transaction(async () => await store.createSession(sessionRow('s2', 2_000), { identity: 'agent', key: 'mcp-key-0001' }))).rejects.toThrow();
      expect((await store.getSession('s2'))).toBeUndefined();
      expect((await store.sessionByIdempotencyKey('agent', 'mcp-key-0001'))?.key).toBe('s1');
    });

    it('[C1] renames a session and refuses an unknown one', async () => {
      await store.createSession(sessionRow('s1', 1_000));
      await store.renameSession('s1', 'Deploy checklist');
      expect((await store.getSession('s1'))?.title).toBe('Deploy checklist');
      expect((await store.listSessions())[0].title).toBe('Deploy checklist');
      await expect(async () => await store.renameSession('nope', 'x')).rejects.toThrow(/session "nope"/);
    });

    it('[C1] refuses a second session with the same key and keeps the first', async () => {
      await store.createSession(sessionRow('s1', 1_000));
      await expect(async () => await store.createSession(sessionRow('s1', 2_000, { title: 'Other' }))).rejects.toThrow();
      expect((await store.getSession('s1'))?.title).toBe('Session s1');
    });

    it('[C1] lists sessions by last message, else creation, newest first', async () => {
      await store.createSession(sessionRow('a', 1_000));
      await store.createSession(sessionRow('b', 2_000));
      await store.createSession(sessionRow('c', 1_500));
      await store.touchSession('c', 3_000);
      expect((await store.listSessions()).map((s) => s.key)).toEqual(['c', 'b', 'a']);
      await store.touchSession('a', 2_500);
      expect((await store.listSessions()).map((s) => s.key)).toEqual(['c', 'a', 'b']);
      expect((await store.getSession('a'))?.lastMessageAtMs).toBe(2_500);
    });

    it('[C1] lists sessions with equal times newest-created first', async () => {
      await store.createSession(sessionRow('first', 1_000));
      await store.createSession(sessionRow('second', 1_000));
      expect((await store.listSessions()).map((s) => s.key)).toEqual(['second', 'first']);
    });

    it('[C1] never moves lastMessageAtMs back and refuses an unknown session', async () => {
      await store.createSession(sessionRow('s1', 1_000));
      await store.touchSession('s1', 5_000);
      await store.touchSession('s1', 4_000);
      expect((await store.getSession('s1'))?.lastMessageAtMs).toBe(5_000);
      await expect(async () => await store.touchSession('nope', 1)).rejects.toThrow(/session "nope"/);
    });

    it('[A3][C1] latestPrivilegedReplies: the newest reply to a privileged question per session and asker, by asker and session', async () => {
      for (const key of ['s1', 's2', 's3']) await store.createSession(sessionRow(key, 1_000));
      await store.insertQuestion(question('p1', { privileged: true }));
      await store.insertQuestion(question('p2', { privileged: true, sessionKey: 's2', askedBy: 'other' }));
      await store.insertQuestion(question('open', { sessionKey: 's3' }));
      const reply = (id: string, sessionKey: string, seq: number, questionId: string) =>
        store.insertMessage(message(id, sessionKey, seq, { replyTo: { questionId } }));
      await reply('m1', 's1', 1, 'p1');
      await reply('m2', 's1', 3, 'p1');
      await reply('m3', 's2', 2, 'p2');
      // A reply to an open question and a plain message are not privileged: they count for no one here.
      await reply('m4', 's3', 9, 'open');
      await store.insertMessage(message('m5', 's1', 8));
      const sorted = (rows: { sessionKey: string; askedBy: string; atMs: number }[]) => [...rows].sort((a, b) => a.sessionKey.localeCompare(b.sessionKey));
      const s1 = { sessionKey: 's1', askedBy: 'agent', atMs: 1_003 };
      const s2 = { sessionKey: 's2', askedBy: 'other', atMs: 1_002 };
      expect(sorted(await store.latestPrivilegedReplies({}))).toEqual([s1, s2]);
      expect(await store.latestPrivilegedReplies({ askedBy: 'agent' })).toEqual([s1]);
      expect(await store.latestPrivilegedReplies({ askedBy: 'nobody' })).toEqual([]);
      expect(await store.latestPrivilegedReplies({ sessionKeys: ['s2', 's3'] })).toEqual([s2]);
      expect(await store.latestPrivilegedReplies({ askedBy: 'other', sessionKeys: ['s1'] })).toEqual([]);
      expect(await store.latestPrivilegedReplies({ sessionKeys: [] })).toEqual([]);
      // The stored lastMessageAtMs is what every reader may know: the replies never moved it.
      expect((await store.getSession('s1'))?.lastMessageAtMs).toBeNull();
    });

    it('[C1] counts only pending, non-retired questions of each session', async () => {
      await store.createSession(sessionRow('s1', 1_000));
      await store.createSession(sessionRow('s2', 2_000));
      await store.insertQuestion(question('q1'));
      await store.insertQuestion(question('q2', { mode: 'async', retiredAtMs: 1_500 }));
      await store.insertQuestion(question('q3', { status: 'answered', answers: { pick: ['A'] } }));
      await store.insertQuestion(question('q4', { mode: 'async' }));
      await store.insertQuestion(question('q5', { sessionKey: 's2' }));
      await store.insertQuestion(question('q6', { sessionKey: undefined }));
      expect((await store.getSession('s1'))?.pendingQuestions).toBe(2);
      expect((await store.getSession('s2'))?.pendingQuestions).toBe(1);
      expect((await store.listSessions()).map((s) => [s.key, s.pendingQuestions])).toEqual([
        ['s2', 1],
        ['s1', 2],
      ]);
      await store.updateQuestion({ ...question('q1'), status: 'expired' });
      await store.updateQuestion({ ...question('q4', { mode: 'async' }), retiredAtMs: 3_000 });
      expect((await store.getSession('s1'))?.pendingQuestions).toBe(0);
    });

    it('[A3][Q10] pendingTallies: open questions per session counted by asker and privilege, without the answered, retired or sessionless', async () => {
      for (const key of ['s1', 's2']) await store.createSession(sessionRow(key, 1_000));
      await store.insertQuestion(question('a1', { mode: 'async' }));
      await store.insertQuestion(question('a2', { mode: 'async' }));
      await store.insertQuestion(question('p1', { mode: 'async', privileged: true }));
      await store.insertQuestion(question('o1', { mode: 'async', askedBy: 'other' }));
      await store.insertQuestion(question('r1', { mode: 'async', retiredAtMs: 1_500 }));
      await store.insertQuestion(question('d1', { status: 'answered', answers: { pick: ['A'] } }));
      await store.insertQuestion(question('t1', { sessionKey: 's2', privileged: true, askedBy: 'other' }));
      await store.insertQuestion(question('n1', { sessionKey: undefined }));
      const order = (rows: { sessionKey: string; askedBy: string; privileged: boolean }[]) =>
        [...rows].sort((a, b) => `${a.sessionKey}/${a.askedBy}/${a.privileged}`.localeCompare(`${b.sessionKey}/${b.askedBy}/${b.privileged}`));
      const s1 = [
        { sessionKey: 's1', askedBy: 'agent', privileged: false, n: 2 },
        { sessionKey: 's1', askedBy: 'agent', privileged: true, n: 1 },
        { sessionKey: 's1', askedBy: 'other', privileged: false, n: 1 },
      ];
      const s2 = [{ sessionKey: 's2', askedBy: 'other', privileged: true, n: 1 }];
      expect(order(await store.pendingTallies('s1'))).toEqual(s1);
      expect(order(await store.pendingTallies())).toEqual([...s1, ...s2]);
      expect(await store.pendingTallies('none')).toEqual([]);
      // An answer and a retirement leave the tallies at once (Q10).
      await store.updateQuestion({ ...question('a1', { mode: 'async' }), status: 'answered', answers: { pick: ['A'] } });
      await store.updateQuestion({ ...question('p1', { mode: 'async', privileged: true }), retiredAtMs: 2_000 });
      expect(order(await store.pendingTallies('s1'))).toEqual([
        { sessionKey: 's1', askedBy: 'agent', privileged: false, n: 1 },
        { sessionKey: 's1', askedBy: 'other', privileged: false, n: 1 },
      ]);
    });
  });
}
