import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { openSqliteStore, type SqliteStore } from './sqlite.ts';
import { questionRecord } from '../../testing/question-record.ts';
import { tempDirs } from '../../testing/temp-dirs.ts';
import type { SearchScope } from './types.ts';

const UNITS = 8;
const ask = (n: number, word: string) =>
  questionRecord({ id: `q${n}`, questions: [{ id: 'env', header: 'Target', question: `Where to ${word}?`, options: [{ label: 'Staging' }, { label: 'Production' }] }] });
const scope = (terms: string[]): SearchScope => ({ terms, sessionKeys: null, questions: { sessionKeys: null, sessionless: true }, limit: 50 });
const found = async (store: SqliteStore, terms: string[]) => (await store.search(scope(terms))).map((h) => h.id).sort();

/** A store on a file whose question index never merges on its own, so its rows count the segments FTS5 wrote. */
async function storeWithSegmentCount(dir: string) {
  const file = `${dir}/askdock.db`;
  await openSqliteStore(file).close();
  const raw = new Database(file);
  raw.exec(`INSERT INTO questions_fts (questions_fts, rank) VALUES ('automerge', 0); INSERT INTO questions_fts (questions_fts, rank) VALUES ('crisismerge', 64);`);
  const rows = raw.prepare<[], { n: number }>(`SELECT COUNT(*) AS n FROM questions_fts_data`);
  return { store: openSqliteStore(file), segmentRows: () => rows.get()!.n, raw };
}

describe('SQLite question search rows', () => {
  const makeTempDir = tempDirs('askdock-qindex-');
  const cleanup: (() => void | Promise<void>)[] = [];
  afterEach(async () => {
    for (const fn of cleanup.splice(0)) await fn();
  });

  it('[U19] a commit group of units that ask and answer questions writes their search rows as one segment, and search finds them', async () => {
    const { store, segmentRows, raw } = await storeWithSegmentCount(makeTempDir());
    cleanup.push(() => store.close(), () => void raw.close());
    const before = segmentRows();
    await store.beginGroup();
    for (let n = 0; n < UNITS; n++) await store.transaction(() => store.insertQuestion(ask(n, n % 2 ? 'ship' : 'deploy')));
    for (let n = 0; n < UNITS; n += 2) await store.transaction(() => store.updateQuestion({ ...ask(n, 'deploy'), status: 'answered', answers: { env: ['Staging'] } }));
    await store.commitGroup();
    // A trigger in each unit made FTS5 write a segment at every savepoint: 12 here.
    expect(segmentRows() - before).toBe(1);
    expect(await found(store, ['ship'])).toEqual(['q1', 'q3', 'q5', 'q7']);
    expect(await found(store, ['staging'])).toEqual(['q0', 'q2', 'q4', 'q6']);
  });

  it('[U19] a search inside an open group finds what its units wrote, and a unit rolled back after that search leaves nothing of its own', async () => {
    const dir = makeTempDir();
    const store = openSqliteStore(`${dir}/askdock.db`);
    cleanup.push(() => store.close());
    await store.insertQuestion(ask(0, 'deploy'));
    await store.beginGroup();
    await store.transaction(() => store.insertQuestion(ask(1, 'deploy')));
    expect(await found(store, ['deploy'])).toEqual(['q0', 'q1']);
    await expect(
      store.transaction(async () => {
        await store.insertQuestion(ask(2, 'deploy'));
        await store.updateQuestion({ ...ask(1, 'ship') });
        expect(await found(store, ['deploy'])).toEqual(['q0', 'q2']);
        throw new Error('undone');
      }),
    ).rejects.toThrow('undone');
    expect(await found(store, ['deploy'])).toEqual(['q0', 'q1']);
    expect(await found(store, ['ship'])).toEqual([]);
    await store.transaction(() => store.updateQuestion({ ...ask(0, 'ship') }));
    await store.commitGroup();
    expect(await found(store, ['deploy'])).toEqual(['q1']);
    expect(await found(store, ['ship'])).toEqual(['q0']);
    await store.beginGroup();
    await store.transaction(() => store.insertQuestion(ask(3, 'deploy')));
    await store.rollbackGroup();
    expect(await found(store, ['deploy'])).toEqual(['q1']);
  });

  it('[U19][R3] after SQLite ends a group by itself, a unit that commits on its own still writes its search row, and it survives a restart', async () => {
    const file = `${makeTempDir()}/askdock.db`;
    await openSqliteStore(file).close();
    // RAISE(ROLLBACK) ends the whole transaction, as SQLite does by itself after SQLITE_FULL.
    const raw = new Database(file);
    raw.exec(`CREATE TRIGGER boom BEFORE INSERT ON questions WHEN NEW.id = 'qboom' BEGIN SELECT RAISE(ROLLBACK, 'boom'); END;`);
    raw.close();
    const store = openSqliteStore(file);
    await store.beginGroup();
    await expect(store.transaction(() => store.insertQuestion({ ...ask(9, 'deploy'), id: 'qboom' }))).rejects.toThrow('boom');
    await store.transaction(() => store.insertQuestion(ask(1, 'deploy')));
    // What a gateway killed now leaves on disk: q1 is committed, and so must its search row be.
    const reader = openSqliteStore(file);
    expect((await reader.getQuestion('q1'))?.id).toBe('q1');
    expect(await found(reader, ['deploy'])).toEqual(['q1']);
    await reader.close();
    await store.commitGroup().catch(() => store.rollbackGroup());
    await store.close();
    const again = openSqliteStore(file);
    cleanup.push(() => again.close());
    expect(await found(again, ['deploy'])).toEqual(['q1']);
    // And the store's counts are right again: a later group's questions are found too.
    await again.beginGroup();
    await again.transaction(() => again.insertQuestion(ask(2, 'ship')));
    await again.commitGroup();
    expect(await found(again, ['ship'])).toEqual(['q2']);
  });
});
