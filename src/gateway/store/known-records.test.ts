import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqliteStore, type SqliteStore } from './sqlite.ts';
import type { StoredQuestion } from './types.ts';

let dir: string;
let store: SqliteStore;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'askdock-known-'));
  // The gateway's own store: the file held, so the store keeps the records it wrote (known-records.ts).
  store = openSqliteStore(join(dir, 'askdock.db'), { exclusive: true });
});
afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const question = (id: string, extra: Partial<StoredQuestion> = {}): StoredQuestion => ({
  id,
  askedBy: 'agent',
  mode: 'blocking',
  questions: [{ id: 'env', header: 'Env', question: 'Where?', options: [{ label: 'Staging' }, { label: 'Prod' }] }],
  createdAtMs: 1,
  expiresAtMs: null,
  status: 'pending',
  ...extra,
});

/** What the row holds, read by a second connection that keeps nothing. */
async function fromRow(id: string): Promise<StoredQuestion | undefined> {
  const reader = openSqliteStore(join(dir, 'askdock.db'));
  try {
    return await reader.getQuestion(id);
  } finally {
    await reader.close();
  }
}

describe('SQLite store: the question records a held file keeps (Q1, R3)', () => {
  it('[Q1] reads what was last written, each read a record of its own', async () => {
    await store.insertQuestion(question('q1'));
    await store.updateQuestion(question('q1', { status: 'answered', answers: { env: ['Staging'] } }));
    const first = (await store.getQuestion('q1'))!;
    expect(first).toEqual((await fromRow('q1')));
    first.answers!.env.push('changed');
    (first as { status: string }).status = 'pending';
    expect((await store.getQuestion('q1'))).toEqual(question('q1', { status: 'answered', answers: { env: ['Staging'] } }));
  });

  it('[R3] a write undone with its transaction is not read back, neither an update nor an insert', async () => {
    await store.insertQuestion(question('q1'));
    await expect(async () =>
      (await store.transaction(async () => {
        await store.updateQuestion(question('q1', { status: 'skipped' }));
        await store.insertQuestion(question('q2'));
        throw new Error('the request failed');
      })),
    ).rejects.toThrow('the request failed');
    expect((await store.getQuestion('q1'))?.status).toBe('pending');
    expect((await store.getQuestion('q2'))).toBeUndefined();
    expect((await fromRow('q1'))?.status).toBe('pending');
  });

  it('[R3] a group rolled back takes its records with it', async () => {
    await store.insertQuestion(question('q1'));
    await store.getQuestion('q1');
    await store.beginGroup();
    await store.transaction(async () => await store.updateQuestion(question('q1', { status: 'answered', answers: { env: ['Prod'] } })));
    await store.transaction(async () => await store.insertQuestion(question('q2')));
    expect((await store.getQuestion('q1'))?.status).toBe('answered');
    await store.rollbackGroup();
    expect((await store.getQuestion('q1'))).toEqual(question('q1'));
    expect((await store.getQuestion('q2'))).toBeUndefined();
  });

  it('[C1] a session read again has its count from the questions now, and every rename or new message in it', async () => {
    await store.createSession({ key: 's1', title: 'First', createdBy: 'operator', agentId: 'agent', createdAtMs: 1, lastMessageAtMs: null });
    expect((await store.getSession('s1'))?.pendingQuestions).toBe(0);
    await store.insertQuestion(question('q1', { sessionKey: 's1' }));
    expect((await store.getSession('s1'))?.pendingQuestions).toBe(1);
    await store.updateQuestion(question('q1', { sessionKey: 's1', retiredAtMs: 5 }));
    expect((await store.getSession('s1'))?.pendingQuestions).toBe(0);
    await store.renameSession('s1', 'Renamed');
    expect((await store.getSession('s1'))?.title).toBe('Renamed');
    await store.touchSession('s1', 9);
    expect((await store.getSession('s1'))).toEqual({ key: 's1', title: 'Renamed', createdBy: 'operator', agentId: 'agent', createdAtMs: 1, lastMessageAtMs: 9, pendingQuestions: 0 });
    await expect(async () =>
      (await store.transaction(async () => {
        await store.renameSession('s1', 'Undone');
        expect((await store.getSession('s1'))?.title).toBe('Undone');
        throw new Error('the request failed');
      })),
    ).rejects.toThrow('the request failed');
    expect((await store.getSession('s1'))?.title).toBe('Renamed');
  });
});
