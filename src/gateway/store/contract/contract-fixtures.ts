import type { ChatMessage } from '../../../protocol/index.ts';
import type { RunRow, SessionRow, Store, StoredEvent, StoredGrant, StoredQuestion } from '../types.ts';

/** Rows and states the store contract writes (store.contract.test.ts and its *-contract.ts modules). */

export const sessionRow = (key: string, createdAtMs: number, over: Partial<SessionRow> = {}): SessionRow => ({
  key,
  title: `Session ${key}`,
  createdBy: 'op',
  agentId: 'agent',
  createdAtMs,
  lastMessageAtMs: null,
  ...over,
});

export const message = (id: string, sessionKey: string, seq: number, over: Partial<ChatMessage> = {}): ChatMessage => ({
  id,
  sessionKey,
  role: 'user',
  text: `text of ${id}`,
  authorId: 'op',
  createdAtMs: 1_000 + seq,
  seq,
  ...over,
});

export const question = (id: string, over: Partial<StoredQuestion> = {}): StoredQuestion => ({
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

export const run = (runId: string, over: Partial<RunRow> = {}): RunRow => ({
  runId,
  sessionKey: 's1',
  agentId: 'agent',
  recovery: false,
  startedAtMs: 1_000,
  ...over,
});

// Through JSON, as a store gives it back: a binding left out (`sessionKey: undefined`) is no key at all.
export const grant = (id: string, over: Partial<StoredGrant> = {}): StoredGrant => JSON.parse(JSON.stringify({
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

export const event = (atMs: number, over: Partial<Omit<StoredEvent, 'seq'>> = {}): Omit<StoredEvent, 'seq'> => ({
  event: 'chat',
  payload: { atMs },
  audience: { sessionKey: 's1' },
  atMs,
  ...over,
});

/** A state touching every table, for rollback and reopen checks. */
export async function seed(store: Store): Promise<void> {
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

export const KNOWN = {
  sessions: ['s1', 's2', 's-new'],
  messages: ['m1', 'm2', 'm3', 'm-new'],
  idempotency: ['key-0001', 'key-new'],
  questions: ['q1', 'q2', 'q-new'],
  runs: ['r1', 'r2', 'r-new'],
  meta: ['boot', 'other'],
};

/** Everything a client could read back, so two states compare in one assertion. */
export async function dump(store: Store) {
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
export async function writeEverything(store: Store): Promise<void> {
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

/** How a contract test opens a store of one engine (again: the same file or database), and removes it after. */
export type Harness = { open(): Store | Promise<Store>; cleanup(): void | Promise<void> };
