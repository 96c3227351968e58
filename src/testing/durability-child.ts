/**
 * Helper process for the R3 tests in store.contract.test.ts: `node --import tsx durability-child.ts <db-file | postgres://…>`.
 * Writes numbered rows, printing `acked <i>` only after each write returned, until the test kills it with SIGKILL.
 */
import { writeSync } from 'node:fs';
import { openPostgresStore } from '../gateway/store/postgres/store.ts';
import { openSqliteStore } from '../gateway/store/sqlite.ts';

const MAX_WRITES = 5000;

const file = process.argv[2];
if (!file) {
  process.stderr.write('usage: node --import tsx durability-child.ts <db-file | postgres://…>\n');
  process.exit(2);
}

const store = /^postgres(ql)?:\/\//.test(file) ? await openPostgresStore(file) : openSqliteStore(file);
await store.createSession({ key: 'durable', title: 'Durability', createdBy: 'child', agentId: null, createdAtMs: Date.now(), lastMessageAtMs: null });

for (let i = 1; i <= MAX_WRITES; i++) {
  const now = Date.now();
  await store.transaction(async () => {
    await store.insertMessage({ id: `m-${i}`, sessionKey: 'durable', role: 'user', text: `write ${i}`, authorId: 'child', createdAtMs: now, seq: i });
    await store.touchSession('durable', now);
    await store.putIdempotent('child', `key-${i}`, { messageId: `m-${i}`, seq: i }, now);
    const question = {
      id: `q-${i}`,
      sessionKey: 'durable',
      askedBy: 'child',
      mode: 'blocking' as const,
      questions: [{ id: 'pick', header: 'Pick', question: 'Which?', options: [{ label: 'A' }, { label: 'B' }] }],
      createdAtMs: now,
      expiresAtMs: now + 900_000,
      status: 'pending' as const,
    };
    await store.insertQuestion(question);
    await store.updateQuestion({ ...question, status: 'answered', answers: { pick: ['A'] }, resolvedBy: { identity: 'op', surface: 'cli', atMs: now } });
    await store.appendEvent({ event: 'chat', payload: { i }, audience: { sessionKey: 'durable' }, atMs: now });
  });
  // One write outside any transaction too: autocommit must be as durable as an explicit transaction.
  await store.setMeta('acked', String(i));
  // Synchronous on a pipe, so the test never reads an ack for a write that has not returned.
  writeSync(1, `acked ${i}\n`);
}

// Stay alive after the last write so the kill, not a clean exit, ends the process; give up if no test is left to kill it.
setTimeout(() => process.exit(3), 60_000);
