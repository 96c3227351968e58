import { beforeEach, describe, expect, it } from 'vitest';
import { sessionRow, message, question } from './contract-fixtures.ts';
import type { Store } from '../types.ts';

/** U19: search over titles, messages and questions; part of the store contract that store.contract.test.ts runs on every store. */
export function searchContract(current: () => Store): void {
  describe('search', async () => {
    let store: Store;
    beforeEach(() => { store = current(); });

    type Scope = Parameters<Store['search']>[0];
    const everyQuestion = { sessionKeys: null, sessionless: true };
    const scope = (terms: string[], over: Partial<Scope> = {}): Scope => ({ terms, sessionKeys: null, questions: everyQuestion, limit: 10, ...over });
    const found = (hits: Awaited<ReturnType<Store['search']>>) => hits.map((h) => `${h.kind}:${h.id}`);

    async function world() {
      await store.createSession(sessionRow('s1', 1_000, { title: 'Deploy pipeline' }));
      await store.createSession(sessionRow('s2', 2_000, { title: 'Lunch plans' }));
      await store.insertMessage(message('m1', 's1', 1, { text: 'Please deploy the café build to staging' }));
      await store.insertMessage(message('m2', 's2', 2, { text: 'Pizza or sushi?' }));
      await store.insertMessage(message('m3', 's1', 3, { text: 'redeploy later', replyTo: { questionId: 'q1' } }));
      await store.insertQuestion(question('q1', { questions: [{ id: 'env', header: 'Environment', question: 'Where to deploy?', options: [{ label: 'Staging' }, { label: 'Production' }] }] }));
      await store.insertQuestion(question('q2', { sessionKey: undefined, questions: [{ id: 'food', header: 'Lunch', question: 'What to eat?', options: [{ label: 'Pizza' }, { label: 'Sushi' }] }] }));
    }

    it('[U19] finds titles, messages and question records by word prefixes, every term required, newest first', async () => {
      await world();
      expect(found(await store.search(scope(['deploy'])))).toEqual(['session:s1', 'message:m1', 'question:q1']);
      expect(found(await store.search(scope(['dep', 'stag'])))).toEqual(['message:m1']);
      expect(found(await store.search(scope(['pizza'])))).toEqual(['message:m2']);
      expect(found(await store.search(scope(['eat'])))).toEqual(['question:q2']);
      expect(found(await store.search(scope(['nothing'])))).toEqual([]);
      // A word inside another word is not a prefix match.
      expect(found(await store.search(scope(['ploy'])))).toEqual([]);
      const hit = (await store.search(scope(['staging'])))[0];
      expect(hit).toMatchObject({ kind: 'message', id: 'm1', sessionKey: 's1', text: 'Please deploy the café build to staging', atMs: 1_001 });
      expect((await store.search(scope(['later'])))[0]).toMatchObject({ id: 'm3', replyToQuestionId: 'q1' });
    });

    it('[U19] keeps the index in step with renames, edited messages and answers', async () => {
      await world();
      await store.renameSession('s2', 'Team dinner');
      expect(found(await store.search(scope(['lunch'], { questions: null })))).toEqual([]);
      expect(found(await store.search(scope(['dinner'])))).toEqual(['session:s2']);
      await store.updateMessageText('m2', 'Tacos tonight');
      expect(found(await store.search(scope(['pizza'])))).toEqual([]);
      expect(found(await store.search(scope(['tacos'])))).toEqual(['message:m2']);
      await store.updateQuestion({ ...(await store.getQuestion('q2'))!, status: 'answered', answers: { food: ['Ramen noodles'] } });
      expect(found(await store.search(scope(['ramen'])))).toEqual(['question:q2']);
    });

    it('[U19][A3] looks only where the scope says: chosen sessions, sessionless questions, questions at all, a limit', async () => {
      await world();
      const questionsIn = (sessionKeys: string[] | null, sessionless: boolean, askedBy?: string) => ({ sessionKeys, sessionless, ...(askedBy ? { askedBy } : {}) });
      expect(found(await store.search(scope(['deploy'], { sessionKeys: ['s2'], questions: questionsIn(['s2'], true) })))).toEqual([]);
      expect(found(await store.search(scope(['deploy'], { sessionKeys: ['s1'], questions: null })))).toEqual(['session:s1', 'message:m1']);
      // Questions have a scope of their own: every session's, with no title or message in reach.
      expect(found(await store.search(scope(['deploy'], { sessionKeys: [] })))).toEqual(['question:q1']);
      expect(found(await store.search(scope(['eat'], { questions: questionsIn(null, false) })))).toEqual([]);
      expect(found(await store.search(scope(['eat'], { questions: questionsIn([], true) })))).toEqual(['question:q2']);
      expect(found(await store.search(scope(['deploy'], { questions: questionsIn(null, true, 'someone-else') })))).toEqual(['session:s1', 'message:m1']);
      expect(found(await store.search(scope(['deploy'], { questions: questionsIn(null, true, 'agent') })))).toEqual(['session:s1', 'message:m1', 'question:q1']);
      expect(found(await store.search(scope(['deploy'], { limit: 1 })))).toEqual(['session:s1', 'message:m1', 'question:q1']);
      await store.insertMessage(message('m4', 's1', 4, { text: 'deploy again' }));
      expect(found(await store.search(scope(['deploy'], { limit: 1, questions: null })))).toEqual(['session:s1', 'message:m4']);
      expect(await store.search(scope([]))).toEqual([]);
    });

    it('[U19] reads quotes, stars and operators in a term as plain characters', async () => {
      await world();
      expect(await store.search(scope(['"deploy', 'or*', 'near(']))).toEqual([]);
    });
  });
}
