import { beforeEach, describe, expect, it } from 'vitest';
import { sessionRow, message, question, event } from './contract-fixtures.ts';
import type { Store } from '../types.ts';

/** copies in and out; part of the store contract that store.contract.test.ts runs on every store. */
export function isolationContract(current: () => Store): void {
  describe('isolation', () => {
    let store: Store;
    beforeEach(() => { store = current(); });

    it('hands out copies: changing what was passed in or read out changes nothing stored', async () => {
      const q = question('q1', { answers: { pick: ['A'] } });
      await store.insertQuestion(q);
      q.questions[0].options.push({ label: 'C' });
      const read = await store.getQuestion('q1');
      read!.answers!.pick.push('B');
      read!.status = 'answered';
      expect((await store.getQuestion('q1'))).toStrictEqual(question('q1', { answers: { pick: ['A'] } }));

      await store.createSession(sessionRow('s1', 1_000));
      const m = message('m1', 's1', 1, { replyTo: { questionId: 'q1', answers: { pick: ['A'] } } });
      await store.insertMessage(m);
      m.replyTo!.answers!.pick.push('B');
      (await store.getMessage('m1'))!.replyTo!.answers!.pick.push('C');
      (await store.history('s1', 10)).messages[0].text = 'changed';
      expect((await store.getMessage('m1'))).toStrictEqual(message('m1', 's1', 1, { replyTo: { questionId: 'q1', answers: { pick: ['A'] } } }));

      const payload = { list: [1] };
      await store.appendEvent(event(1, { payload }));
      payload.list.push(2);
      ((await store.eventsAfter(0, 1))[0].payload as { list: number[] }).list.push(3);
      expect((await store.eventsAfter(0, 1))[0].payload).toEqual({ list: [1] });
    });
  });
}
