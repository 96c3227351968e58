import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../protocol/index.ts';
import { createMemoryStore } from './memory.ts';
import { openPostgresStore, type SharedStore } from './postgres/store.ts';
import { openSqliteStore, SCHEMA_VERSION } from './sqlite.ts';
import { freshSchema, waitingOnLocks } from '../../testing/postgres.ts';
import { auditContract } from './audit-contract.ts';
import type { RunRow, SessionRow, Store, StoredEvent, StoredGrant, StoredQuestion, StoredSecretRequest } from './types.ts';

const here = dirname(fileURLToPath(import.meta.url));
const projectRoot = resolve(here, '../../..');

// ---- fixtures -------------------------------------------------------------------------------

const sessionRow = (key: string, createdAtMs: number, over: Partial<SessionRow> = {}): SessionRow => ({
  key,
  title: `Session ${key}`,
  createdBy: 'op',
  agentId: 'agent',
  createdAtMs,
  lastMessageAtMs: null,
  ...over,
});

const message = (id: string, sessionKey: string, seq: number, over: Partial<ChatMessage> = {}): ChatMessage => ({
  id,
  sessionKey,
  role: 'user',
  text: `text of ${id}`,
  authorId: 'op',
  createdAtMs: 1_000 + seq,
  seq,
  ...over,
});

const question = (id: string, over: Partial<StoredQuestion> = {}): StoredQuestion => ({
  id,
  sessionKey: 's1',
  askedBy: 'agent',
  mode: 'blocking',
  questions: [
    {
      id: 'pick',
      header: 'Pick',
      question: 'Which one?',
      options: [{ label: 'A' }, { label: 'B', description: 'the second' }],
    },
  ],
  createdAtMs: 1_000,
  expiresAtMs: 901_000,
  status: 'pending',
  ...over,
});

const run = (runId: string, over: Partial<RunRow> = {}): RunRow => ({
  runId,
  sessionKey: 's1',
  agentId: 'agent',
  recovery: false,
  startedAtMs: 1_000,
  ...over,
});

// Through JSON, as a store gives it back: a binding left out (`sessionKey: undefined`) is no key at all.
const grant = (id: string, over: Partial<StoredGrant> = {}): StoredGrant => JSON.parse(JSON.stringify({
  id,
  rule: 'Bash(npm run test *)',
  scope: 'session',
  expiresAt: 1_000_000,
  grantedBy: 'op',
  questionId: 'q1',
  sessionKey: 's1',
  createdAtMs: 1_000,
  ...over,
})) as StoredGrant;

const event = (atMs: number, over: Partial<Omit<StoredEvent, 'seq'>> = {}): Omit<StoredEvent, 'seq'> => ({
  event: 'chat',
  payload: { atMs },
  audience: { sessionKey: 's1' },
  atMs,
  ...over,
});

/** A state touching every table, for rollback and reopen checks. */
async function seed(store: Store): Promise<void> {
  await store.createSession(sessionRow('s1', 1_000));
  await store.createSession(sessionRow('s2', 2_000, { agentId: null }), { identity: 'op', key: 'session-key-1' });
  await store.insertMessage(message('m1', 's1', 1));
  await store.insertMessage(message('m2', 's1', 2, { role: 'assistant', runId: 'r1' }));
  await store.insertMessage(message('m3', 's2', 3, { replyTo: { questionId: 'q2', answers: { pick: ['A'] } } }));
  await store.touchSession('s1', 5_000);
  await store.putIdempotent('op', 'key-0001', { messageId: 'm1', seq: 1 }, 1_001);
  await store.insertQuestion(question('q1'));
  await store.insertQuestion(question('q2', { sessionKey: 's2', mode: 'async', expiresAtMs: null, createdAtMs: 1_100 }));
  await store.insertRun(run('r1'));
  await store.insertRun(run('r2', { sessionKey: null, startedAtMs: 1_200 }));
  await store.appendEvent(event(1_000));
  await store.appendEvent(event(2_000, { event: 'session.updated', audience: { sessionKey: 's2' } }));
  await store.insertGrant(grant('g1'));
  await store.setMeta('boot', 'one');
}

const KNOWN = {
  sessions: ['s1', 's2', 's-new'],
  messages: ['m1', 'm2', 'm3', 'm-new'],
  idempotency: ['key-0001', 'key-new'],
  questions: ['q1', 'q2', 'q-new'],
  runs: ['r1', 'r2', 'r-new'],
  meta: ['boot', 'other'],
};

/** Everything a client could read back, so two states compare in one assertion. */
async function dump(store: Store) {
  return {
    sessions: await store.listSessions(),
    sessionByKey: await Promise.all(KNOWN.sessions.map(async (k) => await store.getSession(k))),
    sessionByIdempotencyKey: await Promise.all(['session-key-1', 'session-key-new'].map(async (k) => await store.sessionByIdempotencyKey('op', k))),
    history: await Promise.all(KNOWN.sessions.map(async (k) => await store.history(k, 500))),
    messages: await Promise.all(KNOWN.messages.map(async (id) => await store.getMessage(id))),
    idempotency: await Promise.all(KNOWN.idempotency.map(async (k) => await store.getIdempotent('op', k))),
    questions: await store.listQuestions({}),
    questionById: await Promise.all(KNOWN.questions.map(async (id) => await store.getQuestion(id))),
    due: await store.dueQuestions(Number.MAX_SAFE_INTEGER),
    nextExpiry: await store.nextExpiryMs(),
    pendingAskedBy: await Promise.all(['agent', 'other-agent'].map(async (id) => await store.countPendingAskedBy(id))),
    runs: await Promise.all(KNOWN.runs.map(async (id) => await store.getRun(id))),
    activeRuns: await store.activeRuns(),
    events: await store.eventsAfter(0, 10_000),
    latestSeq: await store.latestSeq(),
    oldestSeq: await store.oldestEventSeq(),
    meta: await Promise.all(KNOWN.meta.map(async (k) => await store.getMeta(k))),
    grants: await store.listGrants(),
    liveGrants: await store.listGrants(5_000),
  };
}

/** One of every write, for checking that a rolled-back transaction leaves none of them behind. */
async function writeEverything(store: Store): Promise<void> {
  await store.createSession(sessionRow('s-new', 9_000), { identity: 'op', key: 'session-key-new' });
  await store.renameSession('s1', 'Renamed');
  await store.insertMessage(message('m-new', 's1', 9));
  await store.updateMessageText('m1', 'edited');
  await store.touchSession('s2', 9_000);
  await store.putIdempotent('op', 'key-new', { messageId: 'm-new', seq: 9 }, 9_000);
  await store.insertQuestion(question('q-new', { expiresAtMs: 2_000 }));
  await store.updateQuestion({ ...question('q1'), status: 'answered', answers: { pick: ['B'] } });
  await store.insertRun(run('r-new'));
  await store.updateRun({ ...run('r1'), endedAtMs: 9_000, stopReason: 'end_turn' });
  await store.appendEvent(event(9_000));
  await store.pruneEvents(Number.MAX_SAFE_INTEGER, 0);
  await store.appendEvent(event(9_001));
  await store.setMeta('boot', 'two');
  await store.setMeta('other', 'x');
  await store.insertGrant(grant('g-new', { scope: 'project', project: '/repo', sessionKey: undefined, createdAtMs: 9_000 }));
  await store.revokeGrant('g1', 9_000);
}

// ---- the contract, run on every implementation -----------------------------------------------

type Harness = { open(): Store | Promise<Store>; cleanup(): void | Promise<void> };

function memoryHarness(): Harness {
  return { open: createMemoryStore, cleanup: () => {} };
}

function sqliteHarness(): Harness & { file: string } {
  const dir = mkdtempSync(join(tmpdir(), 'askdock-store-'));
  const file = join(dir, 'gateway.db');
  return { file, open: () => openSqliteStore(file), cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** As the gateway opens it: the file held, so the store keeps what it last wrote and read (known-records.ts). */
function heldSqliteHarness(): Harness {
  const dir = mkdtempSync(join(tmpdir(), 'askdock-store-'));
  const file = join(dir, 'gateway.db');
  return { open: () => openSqliteStore(file, { exclusive: true }), cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

async function postgresHarness(): Promise<Harness & { url: string }> {
  const schema = await freshSchema('contract');
  return { url: schema.url, open: () => openPostgresStore(schema.url), cleanup: () => schema.drop() };
}

function storeContract(name: string, makeHarness: () => Harness | Promise<Harness>): void {
  describe(`${name} store`, () => {
    let harness: Harness;
    let store: Store;
    beforeEach(async () => {
      harness = await makeHarness();
      store = await harness.open();
    });
    afterEach(async () => {
      await store.close();
      await harness.cleanup();
    });

    describe('sessions', () => {
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

    describe('messages', () => {
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

    describe('idempotency', () => {
      it('[C2] remembers the first result per identity and key', async () => {
        expect((await store.getIdempotent('op', 'key-0001'))).toBeUndefined();
        await store.putIdempotent('op', 'key-0001', { messageId: 'm1', seq: 1 }, 1_000);
        expect((await store.getIdempotent('op', 'key-0001'))).toStrictEqual({ messageId: 'm1', seq: 1 });
        expect((await store.getIdempotent('guest', 'key-0001'))).toBeUndefined();
        await store.putIdempotent('op', 'key-0001', { messageId: 'm2', seq: 2 }, 2_000);
        expect((await store.getIdempotent('op', 'key-0001'))).toStrictEqual({ messageId: 'm1', seq: 1 });
        await store.putIdempotent('guest', 'key-0001', { messageId: 'm3', seq: 3 }, 3_000);
        expect((await store.getIdempotent('guest', 'key-0001'))).toStrictEqual({ messageId: 'm3', seq: 3 });
      });

      it('[C2] a key put inside a write transaction is seen by a check in that same transaction, and leaves with its rollback', async () => {
        // The gateway checks and claims a key inside one write transaction, so two sends racing on one key make one message.
        const seen = await store.transaction(async () => {
          const before = await store.getIdempotent('op', 'key-in-tx');
          await store.putIdempotent('op', 'key-in-tx', { messageId: 'm1', seq: 1 }, 1);
          return { before, after: (await store.getIdempotent('op', 'key-in-tx')) };
        });
        expect(seen).toStrictEqual({ before: undefined, after: { messageId: 'm1', seq: 1 } });
        await expect(async () =>
          (await store.transaction(async () => {
            await store.putIdempotent('op', 'key-undone', { messageId: 'm2', seq: 2 }, 2);
            throw new Error('undo');
          })),
        ).rejects.toThrow('undo');
        expect((await store.getIdempotent('op', 'key-undone'))).toBeUndefined();
      });

      it('[C2] keeps keys that only differ in how identity and key split apart', async () => {
        await store.putIdempotent('a', 'b:c', { messageId: 'm1', seq: 1 }, 1);
        await store.putIdempotent('a:b', 'c', { messageId: 'm2', seq: 2 }, 1);
        expect((await store.getIdempotent('a', 'b:c'))?.messageId).toBe('m1');
        expect((await store.getIdempotent('a:b', 'c'))?.messageId).toBe('m2');
      });
    });

    describe('questions', () => {
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

    describe('runs', () => {
      it('[C4] reads runs back, without absent optional fields, and lists the active ones by session', async () => {
        await store.insertRun(run('r1', { startedAtMs: 1_000 }));
        await store.insertRun(run('r2', { startedAtMs: 1_100, recovery: true, triggerMessageId: 'm1' }));
        await store.insertRun(run('r3', { startedAtMs: 900, sessionKey: null }));
        await store.insertRun(run('r4', { startedAtMs: 1_200, sessionKey: 's2' }));
        expect((await store.getRun('r1'))).toStrictEqual(run('r1', { startedAtMs: 1_000 }));
        expect(Object.keys((await store.getRun('r1')) ?? {})).not.toContain('endedAtMs');
        expect((await store.getRun('r2'))?.recovery).toBe(true);
        expect((await store.getRun('r3'))?.sessionKey).toBeNull();
        expect((await store.getRun('nope'))).toBeUndefined();

        const ids = (list: RunRow[]) => list.map((r) => r.runId);
        expect(ids((await store.activeRuns()))).toEqual(['r3', 'r1', 'r2', 'r4']);
        expect(ids((await store.activeRuns('s1')))).toEqual(['r1', 'r2']);
        expect(ids((await store.activeRuns(null)))).toEqual(['r3']);
        expect(ids((await store.activeRuns('nope')))).toEqual([]);

        const ended = run('r2', { startedAtMs: 1_100, recovery: true, triggerMessageId: 'm1', endedAtMs: 2_000, stopReason: 'end_turn', phase: 'final' });
        await store.updateRun(ended);
        expect((await store.getRun('r2'))).toStrictEqual(ended);
        expect(ids((await store.activeRuns('s1')))).toEqual(['r1']);
      });

      it('[C4][R3] keeps the message a run streams into until an update leaves it out', async () => {
        await store.insertRun(run('r1', { streamingMessageId: 'm-stream' }));
        expect((await store.getRun('r1'))?.streamingMessageId).toBe('m-stream');
        expect((await store.activeRuns('s1'))[0]?.streamingMessageId).toBe('m-stream');
        await store.updateRun(run('r1', { phase: 'final' }));
        expect(Object.keys((await store.getRun('r1')) ?? {})).not.toContain('streamingMessageId');
      });

      it('[C4] refuses a duplicate run and an update of an unknown run', async () => {
        await store.insertRun(run('r1'));
        await expect(async () => await store.insertRun(run('r1', { agentId: 'other' }))).rejects.toThrow();
        expect((await store.getRun('r1'))?.agentId).toBe('agent');
        await expect(async () => await store.updateRun(run('nope'))).rejects.toThrow(/run "nope"/);
      });
    });

    describe('events', () => {
      it('[R1] starts empty', async () => {
        expect((await store.latestSeq())).toBe(0);
        expect((await store.oldestEventSeq())).toBe(0);
        expect((await store.eventsAfter(0, 10))).toEqual([]);
      });

      it('[R1] numbers events 1, 2, 3... and reads them back oldest first', async () => {
        const audience = { sessionKey: null, question: { askedBy: 'agent', privileged: true }, onlyIdentity: 'op' };
        const seqs = [
          (await store.appendEvent(event(100))),
          (await store.appendEvent(event(200, { event: 'question.requested', payload: { question: question('q1') }, audience }))),
          (await store.appendEvent(event(300, { audience: { sessionKey: 's1', onlyIdentity: undefined } }))),
        ];
        expect(seqs).toEqual([1, 2, 3]);
        expect((await store.latestSeq())).toBe(3);
        expect((await store.oldestEventSeq())).toBe(1);
        expect((await store.eventsAfter(0, 10))).toStrictEqual([
          { seq: 1, ...event(100) },
          { seq: 2, ...event(200, { event: 'question.requested', payload: { question: question('q1') }, audience }) },
          { seq: 3, ...event(300) },
        ]);
      });

      it('[R2] replays after a cursor, at most limit events', async () => {
        for (let i = 1; i <= 5; i++) (await store.appendEvent(event(i * 100)));
        const seqs = (list: StoredEvent[]) => list.map((e) => e.seq);
        expect(seqs((await store.eventsAfter(0, 2)))).toEqual([1, 2]);
        expect(seqs((await store.eventsAfter(2, 10)))).toEqual([3, 4, 5]);
        expect(seqs((await store.eventsAfter(4, 1)))).toEqual([5]);
        expect((await store.eventsAfter(5, 10))).toEqual([]);
        expect((await store.eventsAfter(0, 0))).toEqual([]);
      });

      it('[R2] prunes events older than beforeMs but keeps at least the newest N', async () => {
        for (let i = 1; i <= 10; i++) (await store.appendEvent(event(i * 1_000)));
        expect((await store.pruneEvents(5_500, 3))).toBe(5);
        expect((await store.oldestEventSeq())).toBe(6);
        expect((await store.pruneEvents(100_000, 3))).toBe(2);
        expect((await store.eventsAfter(0, 100)).map((e) => e.seq)).toEqual([8, 9, 10]);
        expect((await store.pruneEvents(100_000, 3))).toBe(0);
        expect((await store.pruneEvents(100_000, 50))).toBe(0);
        expect((await store.pruneEvents(0, 0))).toBe(0);
        expect((await store.oldestEventSeq())).toBe(8);
        expect((await store.latestSeq())).toBe(10);
      });

      it('[R2] prunes only a prefix, so kept events have no gaps when clocks step back', async () => {
        for (const atMs of [1_000, 5_000, 2_000, 6_000]) (await store.appendEvent(event(atMs)));
        expect((await store.pruneEvents(3_000, 0))).toBe(1);
        expect((await store.eventsAfter(0, 10)).map((e) => e.seq)).toEqual([2, 3, 4]);
      });

      it('[R1] never reuses a seq after every event was pruned', async () => {
        for (let i = 1; i <= 3; i++) (await store.appendEvent(event(i)));
        expect((await store.pruneEvents(Number.MAX_SAFE_INTEGER, 0))).toBe(3);
        expect((await store.eventsAfter(0, 10))).toEqual([]);
        expect((await store.latestSeq())).toBe(3);
        // Nothing kept: the oldest resumable cursor is the latest, so an older one refetches (R2).
        expect((await store.oldestEventSeq())).toBe(4);
        expect((await store.appendEvent(event(4)))).toBe(4);
        expect((await store.oldestEventSeq())).toBe(4);
      });
    });

    describe('secrets', () => {
      const request = (id: string, over: Partial<StoredSecretRequest> = {}): StoredSecretRequest => ({
        id,
        name: 'API_KEY',
        description: 'for the deploy',
        sessionKey: 's1',
        runId: 'r1',
        askedBy: 'agent',
        createdAtMs: 1_000,
        expiresAtMs: 901_000,
        status: 'pending',
        askerClientId: 'client-1',
        ...over,
      });

      it('[RU1][RU2] keeps a run\'s parent and its superseded mark', async () => {
        await store.insertRun(run('r1'));
        await store.insertRun(run('r2', { parentRunId: 'r1' }));
        expect((await store.getRun('r2'))).toStrictEqual(run('r2', { parentRunId: 'r1' }));
        await store.updateRun(run('r1', { supersededAtMs: 5_000 }));
        expect((await store.getRun('r1'))).toStrictEqual(run('r1', { supersededAtMs: 5_000 }));
        expect((await store.activeRuns('s1')).map((r) => r.supersededAtMs)).toEqual([5_000, undefined]);
      });

      it('[K1] stores, updates and lists secret requests oldest first, by status', async () => {
        await store.insertSecretRequest(request('k2', { createdAtMs: 2_000, sessionKey: undefined, runId: undefined }));
        await store.insertSecretRequest(request('k1'));
        expect((await store.getSecretRequest('k1'))).toStrictEqual(request('k1'));
        expect((await store.getSecretRequest('nope'))).toBeUndefined();
        const done = request('k1', { status: 'stored', resolvedBy: { identity: 'op', surface: 'control-ui', atMs: 3_000 } });
        await store.updateSecretRequest(done);
        expect((await store.getSecretRequest('k1'))).toStrictEqual(done);
        expect((await store.listSecretRequests({})).map((r) => r.id)).toEqual(['k1', 'k2']);
        expect((await store.listSecretRequests({ status: 'pending' })).map((r) => r.id)).toEqual(['k2']);
        expect((await store.listSecretRequests({ status: 'stored' }))).toStrictEqual([done]);
        await expect(async () => await store.insertSecretRequest(request('k1'))).rejects.toThrow();
        await expect(async () => await store.updateSecretRequest(request('missing'))).rejects.toThrow(/secret request "missing"/);
      });

      it('[K1] keeps one ciphertext per owner and name, the newest replacing the older', async () => {
        expect((await store.getSecret('agent-a', 'API_KEY'))).toBeUndefined();
        await store.putSecret({ owner: 'agent-a', name: 'API_KEY', ciphertext: 'v1:first', storedBy: 'op', requestId: 'k1', storedAtMs: 1_000 });
        await store.putSecret({ owner: 'agent-a', name: 'OTHER', ciphertext: 'v1:other', storedBy: 'op', storedAtMs: 1_500 });
        await store.putSecret({ owner: 'agent-a', name: 'API_KEY', ciphertext: 'v1:second', storedBy: 'op2', requestId: 'k2', storedAtMs: 2_000 });
        expect((await store.getSecret('agent-a', 'API_KEY'))).toStrictEqual({ owner: 'agent-a', name: 'API_KEY', ciphertext: 'v1:second', storedBy: 'op2', requestId: 'k2', storedAtMs: 2_000 });
        expect((await store.getSecret('agent-a', 'OTHER'))).toStrictEqual({ owner: 'agent-a', name: 'OTHER', ciphertext: 'v1:other', storedBy: 'op', storedAtMs: 1_500 });
      });

      it("[K1][A4] one owner's secret is not another's: the same name keeps a value per owner, and none is read across", async () => {
        await store.putSecret({ owner: 'agent-a', name: 'API_KEY', ciphertext: 'v1:of-a', storedBy: 'op', requestId: 'k1', storedAtMs: 1_000 });
        expect((await store.getSecret('agent-b', 'API_KEY'))).toBeUndefined();
        await store.putSecret({ owner: 'agent-b', name: 'API_KEY', ciphertext: 'v1:of-b', storedBy: 'op', requestId: 'k2', storedAtMs: 2_000 });
        expect((await store.getSecret('agent-a', 'API_KEY'))?.ciphertext).toBe('v1:of-a');
        expect((await store.getSecret('agent-b', 'API_KEY'))?.ciphertext).toBe('v1:of-b');
      });

      it('[K1][R3] a rolled-back transaction leaves no secret and no request behind', async () => {
        await expect(async () =>
          (await store.transaction(async () => {
            await store.insertSecretRequest(request('k1'));
            await store.putSecret({ owner: 'agent-a', name: 'API_KEY', ciphertext: 'v1:x', storedBy: 'op', storedAtMs: 1_000 });
            throw new Error('undo');
          })),
        ).rejects.toThrow('undo');
        expect((await store.getSecretRequest('k1'))).toBeUndefined();
        expect((await store.getSecret('agent-a', 'API_KEY'))).toBeUndefined();
      });
    });

    describe('grants', () => {
      it('[G5] stores grants and lists the live ones oldest first: unrevoked and not yet expired', async () => {
        await store.insertGrant(grant('g2', { createdAtMs: 2_000, scope: 'agent', agent: 'claude-code', sessionKey: undefined, expiresAt: 3_000 }));
        await store.insertGrant(grant('g1'));
        await store.insertGrant(grant('g3', { createdAtMs: 3_000, scope: 'everyone', sessionKey: undefined }));
        expect(await store.getGrant('g2')).toStrictEqual(grant('g2', { createdAtMs: 2_000, scope: 'agent', agent: 'claude-code', sessionKey: undefined, expiresAt: 3_000 }));
        expect(await store.getGrant('nope')).toBeUndefined();
        expect((await store.listGrants(2_999)).map((g) => g.id)).toEqual(['g1', 'g2', 'g3']);
        // Expiry: a grant is no longer live at its expiresAt.
        expect((await store.listGrants(3_000)).map((g) => g.id)).toEqual(['g1', 'g3']);
        await expect(async () => await store.insertGrant(grant('g1'))).rejects.toThrow();
      });

      it('[G5] a revoked grant is no longer live, keeps when it was revoked, and is revoked once', async () => {
        await store.insertGrant(grant('g1'));
        await store.insertGrant(grant('g2', { createdAtMs: 2_000 }));
        expect(await store.revokeGrant('g1', 5_000)).toBe(true);
        expect(await store.revokeGrant('g1', 6_000)).toBe(false);
        expect(await store.revokeGrant('missing', 6_000)).toBe(false);
        expect((await store.listGrants(5_000)).map((g) => g.id)).toEqual(['g2']);
        expect(await store.getGrant('g1')).toStrictEqual(grant('g1', { revokedAtMs: 5_000 }));
        expect((await store.listGrants()).map((g) => g.id)).toEqual(['g1', 'g2']);
      });

      it('[G5][R3] a grant made in a rolled-back transaction is not kept', async () => {
        await expect(async () =>
          store.transaction(async () => {
            await store.insertGrant(grant('g1'));
            throw new Error('undo');
          }),
        ).rejects.toThrow('undo');
        expect(await store.getGrant('g1')).toBeUndefined();
      });
    });

    auditContract(() => store);

    describe('search', async () => {
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

    describe('push', async () => {
      const sub = (endpoint: string, identity: string, createdAtMs: number) => ({ endpoint, identity, tokenHash: `t-${identity}`, p256dh: `p-${endpoint}`, auth: `a-${endpoint}`, createdAtMs });

      it('[U17] keeps the first VAPID key pair: a later one never replaces it', async () => {
        const first = await store.pushKeys({ publicKey: 'pub1', privateKey: 'priv1', createdAtMs: 1_000 });
        expect(first).toStrictEqual({ publicKey: 'pub1', privateKey: 'priv1', createdAtMs: 1_000 });
        expect(await store.pushKeys({ publicKey: 'pub2', privateKey: 'priv2', createdAtMs: 2_000 })).toStrictEqual(first);
      });

      it("[U17] keeps one subscription per endpoint, lists them per identity oldest first, deletes only an identity's own", async () => {
        await store.putPushSubscription(sub('https://push.example/a', 'op', 1_000));
        await store.putPushSubscription(sub('https://push.example/b', 'guest', 2_000));
        await store.putPushSubscription(sub('https://push.example/c', 'op', 3_000));
        // The same browser subscribed again by its identity: replaced, and now the newest.
        expect(await store.putPushSubscription({ ...sub('https://push.example/a', 'op', 4_000), tokenHash: 't-new' })).toStrictEqual({ stored: true, dropped: [] });
        expect(await store.listPushSubscriptions('op')).toStrictEqual([sub('https://push.example/c', 'op', 3_000), { ...sub('https://push.example/a', 'op', 4_000), tokenHash: 't-new' }]);
        expect((await store.listPushSubscriptions('guest')).map((s) => s.endpoint)).toStrictEqual(['https://push.example/b']);
        expect(await store.listPushSubscriptions()).toHaveLength(3);
        expect(await store.deletePushSubscription('https://push.example/b', 'op')).toBe(false);
        expect(await store.deletePushSubscription('https://push.example/b', 'guest')).toBe(true);
        expect(await store.deletePushSubscription('https://push.example/c')).toBe(true);
        expect(await store.deletePushSubscription('https://push.example/c')).toBe(false);
        expect((await store.listPushSubscriptions()).map((s) => s.endpoint)).toStrictEqual(['https://push.example/a']);
      });

      it("[U17] refuses an endpoint another identity holds: it stays that identity's, unchanged", async () => {
        await store.putPushSubscription(sub('https://push.example/a', 'op', 1_000));
        expect(await store.putPushSubscription(sub('https://push.example/a', 'guest', 2_000), 5)).toStrictEqual({ stored: false, reason: 'taken' });
        expect(await store.listPushSubscriptions()).toStrictEqual([sub('https://push.example/a', 'op', 1_000)]);
      });

      it('[U17] with keep, an identity keeps its newest subscriptions: the one past the cap drops its oldest, no one else\'s', async () => {
        await store.putPushSubscription(sub('https://push.example/other', 'guest', 500));
        for (let i = 1; i <= 5; i++) expect(await store.putPushSubscription(sub(`https://push.example/${i}`, 'op', i * 1_000), 5)).toStrictEqual({ stored: true, dropped: [] });
        // Re-subscribing the oldest makes it the newest: the cap still holds without dropping anything.
        expect(await store.putPushSubscription(sub('https://push.example/1', 'op', 6_000), 5)).toStrictEqual({ stored: true, dropped: [] });
        expect(await store.putPushSubscription(sub('https://push.example/6', 'op', 7_000), 5)).toStrictEqual({ stored: true, dropped: ['https://push.example/2'] });
        expect((await store.listPushSubscriptions('op')).map((s) => s.endpoint)).toStrictEqual(['3', '4', '5', '1', '6'].map((n) => `https://push.example/${n}`));
        expect(await store.putPushSubscription(sub('https://push.example/7', 'op', 8_000), 2)).toStrictEqual({
          stored: true,
          dropped: ['3', '4', '5', '1'].map((n) => `https://push.example/${n}`),
        });
        expect((await store.listPushSubscriptions()).map((s) => s.endpoint)).toStrictEqual(['other', '6', '7'].map((n) => `https://push.example/${n}`));
      });

      it('[U17][R3] a rolled-back transaction leaves no subscription behind', async () => {
        await store.putPushSubscription(sub('https://push.example/a', 'op', 1_000));
        await expect(async () =>
          store.transaction(async () => {
            await store.putPushSubscription(sub('https://push.example/b', 'op', 2_000));
            await store.deletePushSubscription('https://push.example/a');
            throw new Error('undo');
          }),
        ).rejects.toThrow('undo');
        expect((await store.listPushSubscriptions('op')).map((s) => s.endpoint)).toStrictEqual(['https://push.example/a']);
      });
    });

    describe('meta', () => {
      it('stores and overwrites small values', async () => {
        expect((await store.getMeta('k'))).toBeUndefined();
        await store.setMeta('k', 'one');
        await store.setMeta('k', 'two');
        await store.setMeta('empty', '');
        expect((await store.getMeta('k'))).toBe('two');
        expect((await store.getMeta('empty'))).toBe('');
      });
    });

    describe('transactions', () => {
      it('[R3] commits every write of a transaction and returns its value', async () => {
        await seed(store);
        expect((await store.transaction(async () => ((await writeEverything(store)), 'done')))).toBe('done');
        expect((await store.getSession('s-new'))).toBeDefined();
        expect((await store.getMessage('m1'))?.text).toBe('edited');
        expect((await store.getQuestion('q1'))?.status).toBe('answered');
        expect((await store.getRun('r1'))?.stopReason).toBe('end_turn');
        expect((await store.eventsAfter(0, 10)).map((e) => e.seq)).toEqual([4]);
        expect((await store.getMeta('other'))).toBe('x');
      });

      it('[R3] leaves nothing behind when a transaction throws, and rethrows the same error', async () => {
        await seed(store);
        const before = await dump(store);
        const boom = new Error('boom');
        let caught: unknown;
        try {
          await store.transaction(async () => {
            await writeEverything(store);
            throw boom;
          });
        } catch (error) {
          caught = error;
        }
        expect(caught).toBe(boom);
        expect((await dump(store))).toStrictEqual(before);
        expect((await store.appendEvent(event(10_000)))).toBe(3);
      });

      it('[R3] runs a nested transaction inside the outer one: rolled back together', async () => {
        await seed(store);
        const before = await dump(store);
        await expect(async () =>
          (await store.transaction(async () => {
            await store.setMeta('other', 'outer');
            await store.transaction(() => writeEverything(store));
            throw new Error('outer fails');
          })),
        ).rejects.toThrow('outer fails');
        expect((await dump(store))).toStrictEqual(before);
      });

      it('[R3] undoes only a failed nested transaction when the outer one catches it', async () => {
        await seed(store);
        await store.transaction(async () => {
          await store.setMeta('other', 'outer');
          await expect(async () =>
            (await store.transaction(async () => {
              await store.setMeta('boot', 'inner');
              await store.appendEvent(event(3_000));
              throw new Error('inner fails');
            })),
          ).rejects.toThrow('inner fails');
          await store.appendEvent(event(4_000));
        });
        expect((await store.getMeta('other'))).toBe('outer');
        expect((await store.getMeta('boot'))).toBe('one');
        expect((await store.eventsAfter(0, 10)).map((e) => [e.seq, e.atMs])).toEqual([
          [1, 1_000],
          [2, 2_000],
          [3, 4_000],
        ]);
      });

      it('[R3] a group keeps every transaction inside it: commitGroup keeps them all, rollbackGroup undoes them all', async () => {
        await seed(store);
        const before = await dump(store);
        await store.beginGroup();
        await store.transaction(async () => writeEverything(store));
        await store.transaction(async () => await store.appendEvent(event(5_000)));
        await store.rollbackGroup();
        expect((await dump(store))).toStrictEqual(before);

        await store.beginGroup();
        await store.transaction(async () => writeEverything(store));
        await store.commitGroup();
        expect((await store.getSession('s-new'))).toBeDefined();
        expect((await store.eventsAfter(0, 10)).map((e) => e.seq)).toEqual([4]);
      });

      it('[R3] a transaction that throws inside a group undoes only itself', async () => {
        await seed(store);
        await store.beginGroup();
        await store.transaction(async () => await store.setMeta('other', 'kept'));
        await expect(async () =>
          (await store.transaction(async () => {
            await store.setMeta('boot', 'undone');
            await store.appendEvent(event(3_000));
            throw new Error('inner fails');
          })),
        ).rejects.toThrow('inner fails');
        await store.transaction(async () => await store.appendEvent(event(4_000)));
        await store.commitGroup();
        expect((await store.getMeta('other'))).toBe('kept');
        expect((await store.getMeta('boot'))).toBe('one');
        expect((await store.eventsAfter(0, 10)).map((e) => [e.seq, e.atMs])).toEqual([
          [1, 1_000],
          [2, 2_000],
          [3, 4_000],
        ]);
      });

      it('refuses a group inside a transaction, and ending a group that was never begun', async () => {
        await expect(async () => await store.transaction(async () => await store.beginGroup())).rejects.toThrow(/beginGroup/);
        await expect(async () => await store.commitGroup()).rejects.toThrow(/commitGroup/);
        await expect(async () => await store.rollbackGroup()).rejects.toThrow(/rollbackGroup/);
      });

      it('[R3] a transaction holds every write its function awaits, also after other awaits, and undoes them all if it rejects', async () => {
        await expect(async () =>
          store.transaction(async () => {
            await store.setMeta('k', 'v');
            await new Promise((done) => setImmediate(done));
            await store.setMeta('k2', 'v2');
            throw new Error('undo');
          }),
        ).rejects.toThrow('undo');
        expect(await store.getMeta('k')).toBeUndefined();
        expect(await store.getMeta('k2')).toBeUndefined();
        expect(
          await store.transaction(async () => {
            await store.setMeta('k', 'kept');
            return 1;
          }),
        ).toBe(1);
        expect(await store.getMeta('k')).toBe('kept');
      });
    });

    describe('isolation', () => {
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

    it('refuses calls once closed', async () => {
      await store.close();
      await expect(async () => await store.getMeta('k')).rejects.toThrow();
      await expect(async () => await store.setMeta('k', 'v')).rejects.toThrow();
    });
  });
}

storeContract('memory', memoryHarness);
storeContract('sqlite', sqliteHarness);
storeContract('sqlite, held', heldSqliteHarness);
storeContract('postgres', postgresHarness);

// ---- what only a file on disk can show ----------------------------------------------------------

type ChildResult = { acked: number[]; signal: NodeJS.Signals | null; code: number | null; stderr: string };

/** Runs src/testing/durability-child.ts on `file` and kills it with SIGKILL as soon as it acknowledges `killAfter` writes. */
function runChildAndKill(file: string, killAfter: number): Promise<ChildResult> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(projectRoot, 'src/testing/durability-child.ts'), file], {
      cwd: projectRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const acked: number[] = [];
    let buffered = '';
    let stderr = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      buffered += chunk;
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      for (const line of lines) {
        const match = /^acked (\d+)$/.exec(line);
        if (match) acked.push(Number(match[1]));
      }
      if (acked.length >= killAfter && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      stderr += chunk;
    });
    child.on('error', reject);
    child.on('close', (code, signal) => resolvePromise({ acked, signal, code, stderr }));
  });
}

describe('sqlite store on disk', () => {
  let harness: ReturnType<typeof sqliteHarness>;
  beforeEach(() => {
    harness = sqliteHarness();
  });
  afterEach(() => harness.cleanup());

  it('[R3] keeps everything across closing and reopening the file', async () => {
    const first = await harness.open();
    await seed(first);
    await first.transaction(async () => writeEverything(first));
    const before = await dump(first);
    await first.close();

    const raw = new Database(harness.file, { readonly: true });
    expect(raw.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(raw.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    await raw.close();

    const second = await harness.open();
    expect((await dump(second))).toStrictEqual(before);
    await second.close();
  });

  it('[R3] another connection sees a group\'s writes only once commitGroup returned', () => groupSeenOnlyAfterCommit(harness));

  it('[R3] with background checkpoints, commits leave the WAL to the checkpoint thread, which copies it into the file', async () => {
    // The database header keeps the file's size in pages (offset 28); only a checkpoint changes the file itself.
    const pagesInFile = () => readFileSync(harness.file).readUInt32BE(28);
    const store = openSqliteStore(harness.file, { checkpointInBackground: true });
    expect(store.settings()).toMatchObject({ journalMode: 'WAL', checkpoints: 'background' });
    // The thread may fold the schema's own pages in at any moment (a busy machine makes the big commit slow): let it first.
    await expect.poll(pagesInFile, { timeout: 15_000 }).toBeGreaterThan(1);
    // Held while the big commit runs, so the file can change only through the commit itself (an inline checkpoint).
    await store.holdCheckpoints();
    const before = pagesInFile();
    // More WAL than SQLite's own inline threshold (1000 pages): an inline checkpoint would have grown the file at once.
    await store.transaction(async () => {
      for (let i = 0; i < 1500; i++) (await store.insertQuestion(question(`q-${i}`, { questions: [{ id: 'pick', header: 'Pick', question: 'x'.repeat(3000), options: [{ label: 'A' }, { label: 'B' }] }] })));
    });
    expect(pagesInFile()).toBe(before);
    store.resumeCheckpoints();
    await expect.poll(pagesInFile, { timeout: 15_000 }).toBeGreaterThan(before + 1000);
    await store.close();
    const reopened = await harness.open();
    expect((await reopened.getQuestion('q-1499'))?.id).toBe('q-1499');
    await reopened.close();
  });

  it('[R1] never reuses a pruned seq after reopening', async () => {
    const first = await harness.open();
    for (let i = 1; i <= 3; i++) (await first.appendEvent(event(i)));
    await first.pruneEvents(Number.MAX_SAFE_INTEGER, 0);
    await first.close();
    const second = await harness.open();
    expect((await second.latestSeq())).toBe(3);
    expect((await second.oldestEventSeq())).toBe(4);
    expect((await second.appendEvent(event(4)))).toBe(4);
    await second.close();
  });

  it('[S5][K1] an older file learns who asked each question and each secret its owner when it is migrated', async () =>
    (await migratesAnOlderSchema(harness, async () => {
      const raw = new Database(harness.file);
      raw.exec(`DROP INDEX questions_route_due; ${UNDO_AUDIT} ${UNDO_GRANTS} ${UNDO_PUSH_TOKEN} ${UNDO_SECRET_OWNER_SQLITE} ${UNDO_SEARCH_SQLITE} ${UNDO_ASKER_STEPS}`);
      raw.pragma(`user_version = ${SCHEMA_VERSION - UNDONE_STEPS - SECRET_OWNER_STEPS - PUSH_TOKEN_STEPS - SEARCH_SCOPE_STEPS - GRANT_STEPS - SQLITE_AUDIT_STEPS - ROUTE_STEPS - QUESTION_INDEX_STEPS}`);
      raw.close();
    })));

  it('refuses a database written by a newer schema version', async () => {
    (await harness.open()).close();
    const raw = new Database(harness.file);
    raw.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    await raw.close();
    await expect(async () => harness.open()).rejects.toThrow(/schema version/);
  });

  it('[R3] keeps every acknowledged write after SIGKILL', { timeout: 30_000 }, async () => {
    const result = await runChildAndKill(harness.file, 50);
    expect(result.signal, `child exited ${result.code} before the kill: ${result.stderr}`).toBe('SIGKILL');
    expect(result.acked.length).toBeGreaterThanOrEqual(50);
    // The kill skipped the checkpoint on close, so reopening has to recover from the WAL.
    expect(existsSync(`${harness.file}-wal`)).toBe(true);

    await expectEveryAckedWrite(await harness.open(), result.acked);
    const raw = new Database(harness.file, { readonly: true });
    expect(raw.pragma('integrity_check', { simple: true })).toBe('ok');
    await raw.close();
  });
});

/** After the child's SIGKILL: every write it acknowledged is there, in order, none missing. */
async function expectEveryAckedWrite(store: Store, acked: number[]): Promise<void> {
  try {
    const last = acked[acked.length - 1];
    expect(acked).toEqual(Array.from({ length: last }, (_, i) => i + 1));
    for (const i of acked) {
      expect((await store.getMessage(`m-${i}`))?.text).toBe(`write ${i}`);
      expect((await store.getIdempotent('child', `key-${i}`))).toStrictEqual({ messageId: `m-${i}`, seq: i });
      expect((await store.getQuestion(`q-${i}`))?.status).toBe('answered');
    }
    expect(Number((await store.getMeta('acked')))).toBeGreaterThanOrEqual(last);
    expect((await store.latestSeq())).toBeGreaterThanOrEqual(last);
    expect((await store.getSession('durable'))?.lastMessageAtMs).not.toBeNull();
  } finally {
    await store.close();
  }
}

/** Another connection to the same file or database sees a group's writes only once commitGroup returned. */
async function groupSeenOnlyAfterCommit(harness: Harness): Promise<void> {
  const writer = await harness.open();
  const reader = await harness.open();
  await seed(writer);
  await writer.beginGroup();
  await writer.transaction(async () => writeEverything(writer));
  expect((await reader.getSession('s-new'))).toBeUndefined();
  expect((await reader.latestSeq())).toBe(2);
  await writer.commitGroup();
  expect((await reader.getSession('s-new'))).toBeDefined();
  expect((await reader.latestSeq())).toBe(4);
  await reader.close();
  await writer.close();
}

/**
 * Back to the schema before questions.asked_by, as an earlier release wrote it: that step and every one after it undone
 * (C4's streaming column, U19's search indexes, U17's push tables), so all of them are migrated again.
 */
const UNDO_ASKER_STEPS = `DROP INDEX questions_pending_by_asker; ALTER TABLE questions DROP COLUMN asked_by; ALTER TABLE runs DROP COLUMN streaming_message_id;
  DROP TABLE push_subscriptions; DROP TABLE push_keys;`;
/** K1: secrets as they were before they had an owner, one given to a request and one whose request is gone. */
const OLD_SECRETS = `INSERT INTO secrets (name, ciphertext, stored_by, request_id, stored_at_ms) VALUES
  ('OLD_KEY', 'v1:old', 'op', 'k-old', 1000), ('ORPHAN_KEY', 'v1:orphan', 'op', 'k-gone', 1000);`;
const UNDO_SECRET_OWNER_SQLITE = `DROP TABLE secrets; CREATE TABLE secrets (name TEXT PRIMARY KEY, ciphertext TEXT NOT NULL, stored_by TEXT NOT NULL,
  request_id TEXT, stored_at_ms INTEGER NOT NULL) WITHOUT ROWID; ${OLD_SECRETS}`;
const UNDO_SECRET_OWNER_POSTGRES = `DELETE FROM secrets; ALTER TABLE secrets DROP CONSTRAINT secrets_pkey; ALTER TABLE secrets DROP COLUMN owner;
  ALTER TABLE secrets ADD PRIMARY KEY (name); ${OLD_SECRETS}`;
/** How many schema steps the secret owner's undo undoes (the step before the push token's in both stores). */
const SECRET_OWNER_STEPS = 1;
/** U17: the push token's step, right after the secret owner's in both stores. */
const UNDO_PUSH_TOKEN = `ALTER TABLE push_subscriptions DROP COLUMN token_hash;`;
const PUSH_TOKEN_STEPS = 1;
/** U19/A3: the scoped search indexes' step, after the push token's on SQLite (PostgreSQL counts it in POSTGRES_STEPS_AFTER). */
const SEARCH_SCOPE_STEPS = 1;
const UNDO_SEARCH_SQLITE = ['messages', 'sessions', 'questions']
  .map((t) => `DROP TRIGGER IF EXISTS ${t}_fts_insert; DROP TRIGGER IF EXISTS ${t}_fts_update; DROP TRIGGER ${t}_fts_delete; DROP TABLE ${t}_fts;`)
  .join(' ')
  .concat(' DROP INDEX messages_privileged; ALTER TABLE messages DROP COLUMN privileged_asker;');
const UNDO_SEARCH_POSTGRES = `DROP INDEX sessions_search; DROP INDEX messages_search; DROP INDEX questions_search;
  DROP FUNCTION askdock_session_vector(text, text); DROP FUNCTION askdock_message_vector(text, text, text); DROP FUNCTION askdock_question_vector(text, text);
  ALTER TABLE messages DROP COLUMN privileged_asker; DROP FUNCTION askdock_question_text(text);`;
/** G5: the grants' step, the last in both stores. */
const UNDO_GRANTS = `DROP TABLE policy_grants;`;
const GRANT_STEPS = 1;
const UNDO_AUDIT = `DROP TABLE audit_entries; DROP TABLE audit_answers; DROP TABLE audit_checkpoints;`;
/**
 * The audit tables' step, the checkpoints' serial (L7), whose table UNDO_AUDIT drops, and the acknowledgement's mark by
 * serial (the last step; undoing it needs nothing: it only rewrites a meta key).
 */
const AUDIT_STEPS = 3;
/** On SQLite, one step more: the checkpoints' table rebuilt so their serials are never reused (AUTOINCREMENT). */
const SQLITE_AUDIT_STEPS = AUDIT_STEPS + 1;
// E2/E11: the index of escalation deadlines (one step).
const UNDO_ROUTES_POSTGRES = `DROP INDEX questions_route_due; DROP FUNCTION askdock_route_due(text);`;
const ROUTE_STEPS = 1;
/** U19: the questions' search rows written by the store, not by triggers (SQLite only, the last step; undoing it needs nothing). */
const QUESTION_INDEX_STEPS = 1;
/** U19/D5: a question's search vector as a column (PostgreSQL only, the last step). */
const UNDO_QUESTION_SEARCH_POSTGRES = `DROP INDEX questions_search; ALTER TABLE questions DROP COLUMN search;
  CREATE INDEX questions_search ON questions USING gin (askdock_question_vector(record, session_key));`;
const QUESTION_SEARCH_STEPS = 1;
/** How many schema steps those undo (the scoped search indexes, after them, are counted apart). */
const UNDONE_STEPS = 4;
/** On PostgreSQL, the steps after them, undone too: a chat event's message_id, the flush table, the scoped search indexes. */
const POSTGRES_STEPS_AFTER = 3;

/** S5: questions of an older schema (`downgrade` makes it one) learn who asked them; C4: an open run of it streams on; U19: it is indexed. */
async function migratesAnOlderSchema(harness: Harness, downgrade: () => void | Promise<void>): Promise<void> {
  const first = await harness.open();
  await first.insertQuestion(question('q1'));
  await first.insertQuestion(question('q2', { askedBy: 'other-agent' }));
  await first.insertQuestion(question('q3', { status: 'answered', answers: { pick: ['A'] } }));
  await first.insertRun(run('r1'));
  await first.insertSecretRequest({ id: 'k-old', name: 'OLD_KEY', description: 'old', askedBy: 'agent-a', createdAtMs: 1, expiresAtMs: 2, status: 'stored' });
  await first.close();
  await downgrade();
  const second = await harness.open();
  // K1: a secret stored before secrets had owners belongs to the agent that asked for it; one whose request is gone, to nobody.
  expect((await second.getSecret('agent-a', 'OLD_KEY'))).toStrictEqual({ owner: 'agent-a', name: 'OLD_KEY', ciphertext: 'v1:old', storedBy: 'op', requestId: 'k-old', storedAtMs: 1000 });
  expect((await second.getSecret('agent-b', 'OLD_KEY'))).toBeUndefined();
  expect((await second.getSecret('agent-a', 'ORPHAN_KEY'))).toBeUndefined();
  expect(await second.countPendingAskedBy('agent')).toBe(1);
  expect(await second.countPendingAskedBy('other-agent')).toBe(1);
  await second.updateRun(run('r1', { streamingMessageId: 'm-stream' }));
  expect((await second.getRun('r1'))?.streamingMessageId).toBe('m-stream');
  // U19: what was stored before the search indexes existed is found once they are made.
  const hits = await second.search({ terms: ['which'], sessionKeys: null, questions: { sessionKeys: null, sessionless: true }, limit: 10 });
  expect(hits.map((h) => h.id).sort()).toEqual(['q1', 'q2', 'q3']);
  await second.close();
}

describe('postgres store on a server', () => {
  let harness: Awaited<ReturnType<typeof postgresHarness>>;
  beforeEach(async () => {
    harness = await postgresHarness();
  });
  afterEach(() => harness.cleanup());

  it('[R3] keeps everything across closing and reopening', async () => {
    const first = await harness.open();
    await seed(first);
    await first.transaction(async () => writeEverything(first));
    const before = await dump(first);
    await first.close();
    const second = await harness.open();
    expect((await dump(second))).toStrictEqual(before);
    await second.close();
  });

  it("[D2] another gateway's connection sees a group's writes only once commitGroup returned", () => groupSeenOnlyAfterCommit(harness));

  it('[S5][K1] an older database learns who asked each question and each secret its owner when it is migrated', async () =>
    (await migratesAnOlderSchema(harness, async () => {
      const raw = new pg.Client({ connectionString: harness.url });
      await raw.connect();
      await raw.query(`${UNDO_QUESTION_SEARCH_POSTGRES} ${UNDO_ROUTES_POSTGRES} ${UNDO_AUDIT} ${UNDO_GRANTS} ${UNDO_PUSH_TOKEN} ${UNDO_SECRET_OWNER_POSTGRES} ${UNDO_SEARCH_POSTGRES} ${UNDO_ASKER_STEPS} ALTER TABLE events DROP COLUMN message_id; DROP TABLE askdock_flush;\n       UPDATE askdock_schema SET version = version - ${UNDONE_STEPS + POSTGRES_STEPS_AFTER + SECRET_OWNER_STEPS + PUSH_TOKEN_STEPS + GRANT_STEPS + AUDIT_STEPS + ROUTE_STEPS + QUESTION_SEARCH_STEPS}`);
      await raw.end();
    })));

  it('[D1] refuses a database written by a newer schema version', async () => {
    (await harness.open()).close();
    const raw = new pg.Client({ connectionString: harness.url });
    await raw.connect();
    await raw.query(`UPDATE askdock_schema SET version = version + 1`);
    await raw.end();
    await expect(async () => harness.open()).rejects.toThrow(/schema version/);
  });

  it('[R3] keeps every acknowledged write after SIGKILL', { timeout: 60_000 }, async () => {
    const result = await runChildAndKill(harness.url, 50);
    expect(result.signal, `child exited ${result.code} before the kill: ${result.stderr}`).toBe('SIGKILL');
    expect(result.acked.length).toBeGreaterThanOrEqual(50);
    await expectEveryAckedWrite(await harness.open(), result.acked);
  });

  it('[D2] two connections racing to resolve one question: the database lets exactly one of them win, every time', async () => {
    const a = await harness.open();
    const b = await harness.open();
    try {
      await a.createSession(sessionRow('s1', 1_000));
      // As the gateway resolves (questions.ts): read the record inside the writing transaction, end it only if pending.
      const resolve = (store: Store, id: string, by: string) =>
        store.transaction(async () => {
          const q = await store.getQuestion(id);
          if (!q || q.status !== 'pending') return false;
          await store.updateQuestion({ ...q, status: 'answered', answers: { pick: ['A'] }, resolvedBy: { identity: by, surface: 'cli', atMs: 2_000 } });
          await store.appendEvent(event(2_000, { event: 'question.resolved', payload: { id, by } }));
          return true;
        });
      for (let i = 0; i < 20; i++) {
        const id = `q-race-${i}`;
        await a.insertQuestion(question(id));
        const wins = await Promise.all([resolve(a, id, 'a'), resolve(b, id, 'b')]);
        expect(wins.filter(Boolean), `question ${id}`).toHaveLength(1);
        const winner = wins[0] ? 'a' : 'b';
        expect((await b.getQuestion(id))?.resolvedBy?.identity).toBe(winner);
      }
      const resolved = (await a.eventsAfter(0, 100)).filter((e) => e.event === 'question.resolved');
      expect(resolved).toHaveLength(20);
      expect(resolved.map((e) => e.seq)).toEqual(resolved.map((_, i) => resolved[0].seq + i));
    } finally {
      await a.close();
      await b.close();
    }
  });

  it("[D2][C2] a message written in a transaction takes its chat event's seq at commit: in history, in replay, for its idempotency key", async () => {
    const a = (await harness.open()) as SharedStore;
    try {
      await a.createSession(sessionRow('s1', 1_000));
      await a.appendEvent(event(1_000));
      const provisional = await a.transaction(async () => {
        const seq = a.reserveSeq()!;
        const m = message('m-1', 's1', seq);
        await a.insertMessage(m);
        expect(await a.appendEvent(event(2_000, { payload: { sessionKey: 's1', message: m, state: 'final' } }))).toBe(seq);
        await a.putIdempotent('op', 'k1', { messageId: 'm-1', seq }, 2_000);
        return seq;
      });
      expect(provisional).toBeLessThan(0);
      expect(a.reserveSeq()).toBeNull();
      expect(a.settledSeq(provisional)).toBe(2);
      expect((await a.history('s1', 10)).messages.map((m) => [m.id, m.seq])).toEqual([['m-1', 2]]);
      const [chat] = await a.eventsAfter(1, 10);
      expect([chat.seq, (chat.payload as { message: ChatMessage }).message.seq]).toEqual([2, 2]);
      expect(await a.getIdempotent('op', 'k1')).toEqual({ messageId: 'm-1', seq: 2 });
    } finally {
      await a.close();
    }
  });

  it('[D2][A1] two gateways that read a missing setting and set it in one transaction take turns: both end with the first value', async () => {
    const a = await harness.open();
    const b = await harness.open();
    try {
      for (let i = 0; i < 10; i++) {
        const key = `first-${i}`;
        const firstOr = (store: Store, mine: string) =>
          store.transaction(async () => {
            const saved = await store.getMeta(key);
            if (saved === undefined) await store.setMeta(key, mine);
            return saved ?? mine;
          });
        const [x, y] = await Promise.all([firstOr(a, 'a'), firstOr(b, 'b')]);
        expect(x, key).toBe(y);
        expect(await a.getMeta(key)).toBe(x);
      }
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('[D2] a session read inside a transaction is locked until it commits: its session waits, another session does not', async () => {
    const a = await harness.open();
    const b = await harness.open();
    try {
      await a.createSession(sessionRow('s1', 1_000));
      await a.createSession(sessionRow('s2', 1_000));
      let release!: () => void;
      const held = new Promise<void>((ok) => (release = ok));
      let aRead!: () => void;
      const aHasIt = new Promise<void>((ok) => (aRead = ok));
      const aDone = a.transaction(async () => {
        await a.getSession('s1');
        aRead();
        await held;
        await a.touchSession('s1', 5_000);
      });
      await aHasIt;
      // Another session is written at once; the held one waits for A's commit and then reads what A wrote.
      await b.transaction(async () => await b.touchSession('s2', 6_000));
      let bSaw: number | null | undefined;
      const bDone = b.transaction(async () => (bSaw = (await b.getSession('s1'))?.lastMessageAtMs));
      // B's read is seen waiting for A's lock.
      await expect.poll(() => waitingOnLocks(harness.url, 'sessions')).toBe(1);
      expect(bSaw).toBeUndefined();
      release();
      await aDone;
      await bDone;
      expect(bSaw).toBe(5_000);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('[D2][R2] two connections writing at once: neither waits for the other, and a reader never sees a seq before every smaller one is committed', async () => {
    const a = (await harness.open()) as SharedStore;
    const b = await harness.open();
    const reader = await harness.open();
    try {
      // A's group holds an event, numbered only when A commits; B writes and commits meanwhile without waiting for A.
      await a.beginGroup();
      const provisional = await a.transaction(() => a.appendEvent(event(1_000)));
      expect(provisional).toBeLessThan(0);
      expect(await b.transaction(() => b.appendEvent(event(2_000)))).toBeLessThan(0);
      expect((await reader.eventsAfter(0, 10)).map((e) => [e.seq, e.atMs])).toEqual([[1, 2_000]]);
      await a.commitGroup();
      expect(a.settledSeq(provisional)).toBe(2);
      expect((await reader.eventsAfter(0, 10)).map((e) => [e.seq, e.atMs])).toEqual([
        [1, 2_000],
        [2, 1_000],
      ]);
      // Many writers at once, read while they write: every read is a gapless run from the first seq on.
      const writers = Array.from({ length: 40 }, (_, i) => (i % 2 ? a : b).transaction(() => (i % 2 ? a : b).appendEvent(event(3_000 + i))));
      let all = Promise.all(writers).then(() => undefined);
      let finished = false;
      all = all.finally(() => (finished = true));
      while (!finished) {
        const seen = (await reader.eventsAfter(0, 100)).map((e) => e.seq);
        expect(seen).toEqual(seen.map((_, i) => i + 1));
      }
      await all;
      expect((await reader.eventsAfter(0, 100)).map((e) => e.seq)).toEqual(Array.from({ length: 42 }, (_, i) => i + 1));
      expect(await reader.latestSeq()).toBe(42);
    } finally {
      await a.close();
      await b.close();
      await reader.close();
    }
  });
});
