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
afterEach(() => {
  store.close();
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
function fromRow(id: string): StoredQuestion | undefined {
  const reader = openSqliteStore(join(dir, 'askdock.db'));
  try {
    return reader.getQuestion(id);
  } finally {
    reader.close();
  }
}

describe('SQLite store: the question records a held file keeps (Q1, R3)', () => {
  it('[Q1] reads what was last written, each read a record of its own', () => {
    store.insertQuestion(question('q1'));
    store.updateQuestion(question('q1', { status: 'answered', answers: { env: ['Staging'] } }));
    const first = store.getQuestion('q1')!;
    expect(first).toEqual(fromRow('q1'));
    first.answers!.env.push('changed');
    (first as { status: string }).status = 'pending';
    expect(store.getQuestion('q1')).toEqual(question('q1', { status: 'answered', answers: { env: ['Staging'] } }));
  });

  it('[R3] a write undone with its transaction is not read back, neither an update nor an insert', () => {
    store.insertQuestion(question('q1'));
    expect(() =>
      store.transaction(() => {
        store.updateQuestion(question('q1', { status: 'skipped' }));
        store.insertQuestion(question('q2'));
        throw new Error('the request failed');
      }),
    ).toThrow('the request failed');
    expect(store.getQuestion('q1')?.status).toBe('pending');
    expect(store.getQuestion('q2')).toBeUndefined();
    expect(fromRow('q1')?.status).toBe('pending');
  });

  it('[R3] a group rolled back takes its records with it', () => {
    store.insertQuestion(question('q1'));
    store.getQuestion('q1');
    store.beginGroup();
    store.transaction(() => store.updateQuestion(question('q1', { status: 'answered', answers: { env: ['Prod'] } })));
    store.transaction(() => store.insertQuestion(question('q2')));
    expect(store.getQuestion('q1')?.status).toBe('answered');
    store.rollbackGroup();
    expect(store.getQuestion('q1')).toEqual(question('q1'));
    expect(store.getQuestion('q2')).toBeUndefined();
  });

  it('[C1] a session read again has its count from the questions now, and every rename or new message in it', () => {
    store.createSession({ key: 's1', title: 'First', createdBy: 'operator', agentId: 'agent', createdAtMs: 1, lastMessageAtMs: null });
    expect(store.getSession('s1')?.pendingQuestions).toBe(0);
    store.insertQuestion(question('q1', { sessionKey: 's1' }));
    expect(store.getSession('s1')?.pendingQuestions).toBe(1);
    store.updateQuestion(question('q1', { sessionKey: 's1', retiredAtMs: 5 }));
    expect(store.getSession('s1')?.pendingQuestions).toBe(0);
    store.renameSession('s1', 'Renamed');
    expect(store.getSession('s1')?.title).toBe('Renamed');
    store.touchSession('s1', 9);
    expect(store.getSession('s1')).toEqual({ key: 's1', title: 'Renamed', createdBy: 'operator', agentId: 'agent', createdAtMs: 1, lastMessageAtMs: 9, pendingQuestions: 0 });
    expect(() =>
      store.transaction(() => {
        store.renameSession('s1', 'Undone');
        expect(store.getSession('s1')?.title).toBe('Undone');
        throw new Error('the request failed');
      }),
    ).toThrow('the request failed');
    expect(store.getSession('s1')?.title).toBe('Renamed');
  });
});
