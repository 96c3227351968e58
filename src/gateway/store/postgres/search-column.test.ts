import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { freshSchema, type TestSchema } from '../../../testing/postgres.ts';
import { questionRecord } from '../../../testing/question-record.ts';
import type { StoredQuestion } from '../types.ts';
import { openPostgresStore, type SharedStore } from './store.ts';

let schema: TestSchema | undefined;
let store: SharedStore | undefined;
afterEach(async () => {
  await store?.close();
  store = undefined;
  await schema?.drop();
  schema = undefined;
});

/** The two-question prompt of the question tests, in a session, as stored. */
const question = (id: string, over: Partial<StoredQuestion> = {}): StoredQuestion => ({ ...questionRecord({ id, sessionKey: 's1' }), ...over });

describe('[U19] PostgreSQL search column', () => {
  it('[U19][A3] a question written or rewritten stores the vector the migration computes from its record, so search finds the same rows', async () => {
    schema = await freshSchema('search_column');
    store = await openPostgresStore(schema.url);
    await store.insertQuestion(question('q-session'));
    await store.insertQuestion(question('q-none', { sessionKey: undefined, askedBy: 'other-agent' }));
    await store.insertQuestion(question('q-priv', { privileged: true }));
    await store.insertQuestion(question('q-answered'));
    await store.updateQuestion(question('q-answered', { status: 'answered', answers: { env: ['Staging', 'Canary west'], notify: ['Email', 'Pager'] } }));
    const raw = new pg.Client({ connectionString: schema.url });
    await raw.connect();
    try {
      const r = await raw.query(`SELECT id, search IS NOT DISTINCT FROM askdock_question_vector(record, session_key) AS same FROM questions ORDER BY id`);
      expect(r.rows).toEqual([
        { id: 'q-answered', same: true },
        { id: 'q-none', same: true },
        { id: 'q-priv', same: true },
        { id: 'q-session', same: true },
      ]);
    } finally {
      await raw.end();
    }
    const hits = await store.search({ terms: ['canary'], sessionKeys: null, questions: { sessionKeys: null, sessionless: true }, limit: 10 });
    expect(hits.map((h) => h.id)).toEqual(['q-answered']);
  });
});
