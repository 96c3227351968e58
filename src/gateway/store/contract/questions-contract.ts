import { beforeEach, describe, expect, it } from 'vitest';
import { question } from './contract-fixtures.ts';
import type { Store, StoredQuestion } from '../types.ts';

/** Q1/Q2/Q5/Q6/Q7/S5/E11: question records, their lists, counts and expiries; part of the store contract that store.contract.test.ts runs on every store. */
export function questionsContract(current: () => Store): void {
  describe('questions', () => {
    let store: Store;
    beforeEach(() => { store = current(); });

    it('[Q1] reads a record back with every field, including resolutionId and askerClientId', async () => {
      const full = question('q1', {
        runId: 'r1',
        mode: 'async',
        privileged: true,
        status: 'answered',
        answers: { pick: ['B'] },
        resolvedBy: { identity: 'op', surface: 'control-ui', atMs: 2_000 },
        reason: 'because',
        retiredAtMs: 3_000,
        replyMessageId: 'm9',
        resolutionId: 'res-1',
        askerClientId: 'client-7',
      });
      await store.insertQuestion(full);
      expect((await store.getQuestion('q1'))).toStrictEqual(full);
      expect((await store.getQuestion('nope'))).toBeUndefined();
    });

    it('[Q1] reads a sessionless record back without absent optional fields', async () => {
      await store.insertQuestion(question('q1', { sessionKey: undefined, runId: undefined, expiresAtMs: null }));
      const got = await store.getQuestion('q1');
      const { sessionKey: _dropped, ...expected } = question('q1', { expiresAtMs: null });
      expect(got).toStrictEqual(expected);
      expect(Object.keys(got ?? {})).not.toContain('sessionKey');
      expect(got?.expiresAtMs).toBeNull();
    });

    it('[Q2] refuses a second question with the same id and keeps the first', async () => {
      await store.insertQuestion(question('q1'));
      await expect(async () => await store.insertQuestion(question('q1', { askedBy: 'someone-else' }))).rejects.toThrow();
      expect((await store.getQuestion('q1'))).toStrictEqual(question('q1'));
    });

    it('[Q5] replaces the whole record on update and refuses an unknown id', async () => {
      await store.insertQuestion(question('q1', { reason: 'will be dropped' }));
      const answered = question('q1', {
        status: 'answered',
        answers: { pick: ['A'] },
        resolvedBy: { identity: 'op', surface: 'tui', atMs: 5_000 },
        resolutionId: 'res-1',
      });
      await store.updateQuestion(answered);
      expect((await store.getQuestion('q1'))).toStrictEqual(answered);
      await expect(async () => await store.updateQuestion(question('nope'))).rejects.toThrow(/question "nope"/);
      expect((await store.getQuestion('nope'))).toBeUndefined();
    });

    it('[E11] keeps a routed question\'s route with its record, and each change of it, listed with the pending questions', async () => {
      const route = { escalation: 'prod', step: 0, notified: ['ana'], eligible: ['ana'], nextAtMs: 10_000, quorum: { needed: 2, approvals: [] } };
      await store.insertQuestion(question('q1', { route }));
      expect((await store.getQuestion('q1'))?.route).toStrictEqual(route);
      const stepped = { ...route, step: 1, notified: ['ana', 'bo'], eligible: ['ana', 'bo'], nextAtMs: 20_000, skipped: [{ target: 'schedule:primary', reason: 'nobody-on-call', atMs: 10_000 }] };
      await store.updateQuestion(question('q1', { route: stepped }));
      expect((await store.listQuestions({ status: 'pending' })).map((q) => q.route)).toStrictEqual([stepped]);
    });

    it('[Q6] lists questions oldest first, filtered by session and status', async () => {
      await store.insertQuestion(question('q1', { createdAtMs: 3_000 }));
      await store.insertQuestion(question('q2', { sessionKey: 's2', createdAtMs: 1_000 }));
      await store.insertQuestion(question('q3', { createdAtMs: 2_000, status: 'answered', answers: { pick: ['A'] } }));
      await store.insertQuestion(question('q4', { sessionKey: undefined, createdAtMs: 1_500 }));
      await store.insertQuestion(question('q5', { createdAtMs: 2_000 }));
      const ids = (list: StoredQuestion[]) => list.map((q) => q.id);
      expect(ids((await store.listQuestions({})))).toEqual(['q2', 'q4', 'q3', 'q5', 'q1']);
      expect(ids((await store.listQuestions({ sessionKey: 's1' })))).toEqual(['q3', 'q5', 'q1']);
      expect(ids((await store.listQuestions({ status: 'pending' })))).toEqual(['q2', 'q4', 'q5', 'q1']);
      expect(ids((await store.listQuestions({ sessionKey: 's1', status: 'pending' })))).toEqual(['q5', 'q1']);
      expect(ids((await store.listQuestions({ sessionKey: 's1', status: 'answered' })))).toEqual(['q3']);
      expect(ids((await store.listQuestions({ sessionKey: 'nope' })))).toEqual([]);
      expect((await store.listQuestions({ sessionKey: 's1', status: 'answered' }))[0]).toStrictEqual(
        question('q3', { createdAtMs: 2_000, status: 'answered', answers: { pick: ['A'] } }),
      );
    });

    it('[S5] counts the pending, not retired questions of one asker', async () => {
      expect((await store.countPendingAskedBy('agent'))).toBe(0);
      await store.insertQuestion(question('q1'));
      await store.insertQuestion(question('q2', { sessionKey: undefined, mode: 'async', expiresAtMs: null }));
      await store.insertQuestion(question('q3', { askedBy: 'other-agent' }));
      await store.insertQuestion(question('q4', { status: 'answered', answers: { pick: ['A'] } }));
      await store.insertQuestion(question('q5', { mode: 'async', expiresAtMs: null, retiredAtMs: 2_000 }));
      expect((await store.countPendingAskedBy('agent'))).toBe(2);
      expect((await store.countPendingAskedBy('other-agent'))).toBe(1);
      expect((await store.countPendingAskedBy('nobody'))).toBe(0);
      await store.updateQuestion(question('q1', { status: 'expired' }));
      await store.updateQuestion(question('q2', { sessionKey: undefined, mode: 'async', expiresAtMs: null, retiredAtMs: 3_000 }));
      expect((await store.countPendingAskedBy('agent'))).toBe(0);
      await store.updateQuestion(question('q2', { sessionKey: undefined, mode: 'async', expiresAtMs: null }));
      expect((await store.countPendingAskedBy('agent'))).toBe(1);
    });

    it('[Q7] finds due pending questions, soonest first, and the next expiry', async () => {
      expect((await store.nextExpiryMs())).toBeNull();
      expect((await store.dueQuestions(Number.MAX_SAFE_INTEGER))).toEqual([]);
      await store.insertQuestion(question('qa', { expiresAtMs: 5_000 }));
      await store.insertQuestion(question('qb', { expiresAtMs: 3_000 }));
      await store.insertQuestion(question('qc', { mode: 'async', expiresAtMs: null }));
      await store.insertQuestion(question('qd', { expiresAtMs: 1_000, status: 'answered', answers: { pick: ['A'] } }));
      await store.insertQuestion(question('qe', { mode: 'async', expiresAtMs: 4_000, retiredAtMs: 2_000 }));
      const ids = (list: StoredQuestion[]) => list.map((q) => q.id);
      expect((await store.nextExpiryMs())).toBe(3_000);
      expect(ids((await store.dueQuestions(2_999)))).toEqual([]);
      expect(ids((await store.dueQuestions(3_000)))).toEqual(['qb']);
      expect(ids((await store.dueQuestions(5_000)))).toEqual(['qb', 'qe', 'qa']);
      expect((await store.dueQuestions(3_000))[0]).toStrictEqual(question('qb', { expiresAtMs: 3_000 }));

      await store.updateQuestion({ ...question('qb', { expiresAtMs: 3_000 }), status: 'expired' });
      expect((await store.nextExpiryMs())).toBe(4_000);
      await store.updateQuestion({ ...question('qe', { mode: 'async', expiresAtMs: 4_000 }), status: 'skipped' });
      await store.updateQuestion({ ...question('qa', { expiresAtMs: 5_000 }), status: 'cancelled', reason: 'run-ended' });
      expect((await store.nextExpiryMs())).toBeNull();
      expect((await store.dueQuestions(Number.MAX_SAFE_INTEGER))).toEqual([]);
    });
  });
}
