import { beforeEach, describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../../protocol/index.ts';
import { sessionRow, message } from './contract-fixtures.ts';
import type { Store } from '../types.ts';

/** C3/C4: messages and the history pages; part of the store contract that store.contract.test.ts runs on every store. */
export function messagesContract(current: () => Store): void {
  describe('messages', () => {
    let store: Store;
    beforeEach(() => { store = current(); });

    beforeEach(async () => {
      await store.createSession(sessionRow('s1', 1_000));
      await store.createSession(sessionRow('s2', 1_000));
    });

    it('[C3] reads a message back without absent optional fields', async () => {
      await store.insertMessage({ ...message('m1', 's1', 1), runId: undefined, replyTo: undefined });
      const got = await store.getMessage('m1');
      expect(got).toStrictEqual(message('m1', 's1', 1));
      expect(Object.keys(got ?? {})).not.toContain('runId');
      expect(Object.keys(got ?? {})).not.toContain('replyTo');
      expect((await store.getMessage('nope'))).toBeUndefined();
    });

    it('[C3] keeps runId and replyTo with and without answers', async () => {
      const withAnswers = message('m1', 's1', 1, { role: 'assistant', runId: 'r1', replyTo: { questionId: 'q1', answers: { pick: ['A', 'free text'] } } });
      const bare = message('m2', 's1', 2, { role: 'system', replyTo: { questionId: 'q2' } });
      await store.insertMessage(withAnswers);
      await store.insertMessage(bare);
      expect((await store.getMessage('m1'))).toStrictEqual(withAnswers);
      expect((await store.getMessage('m2'))).toStrictEqual(bare);
      expect((await store.history('s1', 10)).messages).toStrictEqual([withAnswers, bare]);
    });

    it('[C3] refuses a second message with the same id and keeps the first', async () => {
      await store.insertMessage(message('m1', 's1', 1));
      await expect(async () => await store.insertMessage(message('m1', 's2', 2, { text: 'other' }))).rejects.toThrow();
      expect((await store.getMessage('m1'))).toStrictEqual(message('m1', 's1', 1));
    });

    it('[C4] replaces a streamed message text and refuses an unknown id', async () => {
      await store.insertMessage(message('m1', 's1', 1, { role: 'assistant', runId: 'r1', text: 'Hel' }));
      await store.updateMessageText('m1', 'Hello, world');
      expect((await store.getMessage('m1'))).toStrictEqual(message('m1', 's1', 1, { role: 'assistant', runId: 'r1', text: 'Hello, world' }));
      await expect(async () => await store.updateMessageText('nope', 'x')).rejects.toThrow(/message "nope"/);
    });

    it('[C3] pages history oldest first with hasMore', async () => {
      for (let seq = 1; seq <= 7; seq++) {
        await store.insertMessage(message(`m${seq}`, 's1', seq));
        await store.insertMessage(message(`other${seq}`, 's2', 100 + seq));
      }
      const ids = (page: { messages: ChatMessage[] }) => page.messages.map((m) => m.id);

      const newest = await store.history('s1', 3);
      expect(ids(newest)).toEqual(['m5', 'm6', 'm7']);
      expect(newest.hasMore).toBe(true);
      const middle = await store.history('s1', 3, 'm5');
      expect(ids(middle)).toEqual(['m2', 'm3', 'm4']);
      expect(middle.hasMore).toBe(true);
      const oldest = await store.history('s1', 3, 'm2');
      expect(ids(oldest)).toEqual(['m1']);
      expect(oldest.hasMore).toBe(false);
      expect((await store.history('s1', 3, 'm1'))).toStrictEqual({ messages: [], hasMore: false });

      expect((await store.history('s1', 7)).hasMore).toBe(false);
      expect((await store.history('s1', 6)).hasMore).toBe(true);
      expect(ids((await store.history('s1', 500)))).toEqual(['m1', 'm2', 'm3', 'm4', 'm5', 'm6', 'm7']);
    });

    it('[C3] walks every message exactly once by following before', async () => {
      for (let seq = 1; seq <= 23; seq++) (await store.insertMessage(message(`m${seq}`, 's1', seq)));
      const seen: string[] = [];
      let before: string | undefined;
      for (let pages = 0; pages < 10; pages++) {
        const page = await store.history('s1', 5, before);
        seen.unshift(...page.messages.map((m) => m.id));
        if (!page.hasMore) break;
        before = page.messages[0].id;
      }
      expect(seen).toEqual(Array.from({ length: 23 }, (_, i) => `m${i + 1}`));
    });

    it('[C3] orders history by seq, not by insertion', async () => {
      await store.insertMessage(message('m3', 's1', 3));
      await store.insertMessage(message('m1', 's1', 1));
      await store.insertMessage(message('m2', 's1', 2));
      expect((await store.history('s1', 10)).messages.map((m) => m.id)).toEqual(['m1', 'm2', 'm3']);
      expect((await store.history('s1', 1, 'm3')).messages.map((m) => m.id)).toEqual(['m2']);
    });

    it('[C3] answers an empty page for an empty session, an unknown before, or a before from another session', async () => {
      await store.insertMessage(message('m1', 's1', 1));
      await store.insertMessage(message('x1', 's2', 2));
      expect((await store.history('s2-empty', 10))).toStrictEqual({ messages: [], hasMore: false });
      expect((await store.history('s1', 10, 'nope'))).toStrictEqual({ messages: [], hasMore: false });
      expect((await store.history('s1', 10, 'x1'))).toStrictEqual({ messages: [], hasMore: false });
    });
  });
}
