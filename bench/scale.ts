/**
 * Scale figures (issue 20 item 4), each at 1x and 10x so the table shows how it grows:
 *  - idle operator connections (1,000 and 10,000): gateway RSS per connection, and one question.requested to all of
 *    them: time from the request to the last socket;
 *  - sessions x 100 messages (100 and 1,000 sessions): a history page (chat.history, default limit) and sessions.list;
 *  - retained question records (1,000 and 10,000, answered, beside 10 pending): question.list, hello-ok size and time.
 * Messages and sessions are written into the database file before the gateway opens it (100,000 messages through
 * chat.send would take minutes here); questions go through the protocol, pipelined.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { openSqliteStore } from '../src/gateway/store/sqlite.ts';
import { inParallel, startBenchGateway, type BenchGateway } from './lib/bench-gateway.ts';
import { RawClient } from './lib/raw-client.ts';
import { median, round } from './lib/stats.ts';

export type ConnectionsAt = { connections: number; rssPerConnectionKb: number; eventToLastMs: number; delivered: number };
export type SessionsAt = { sessions: number; messagesPerSession: number; historyPageMs: number; sessionsListMs: number; sessionsListKb: number };
export type QuestionsAt = { retained: number; pending: number; questionListMs: number; questionListKb: number; helloMs: number; helloKb: number };
export type ScaleFigures = { connections: ConnectionsAt[]; sessions: SessionsAt[]; questions: QuestionsAt[] };

const QUESTION = [{ id: 'env', header: 'Environment', question: 'Where should this go?', options: [{ label: 'Staging' }, { label: 'Production' }] }];

/** Median time of `n` calls, one after another. */
async function medianOf(n: number, once: (i: number) => Promise<number>): Promise<number> {
  const samples: number[] = [];
  for (let i = 0; i < n; i++) samples.push(await once(i));
  return round(median(samples), 2);
}

export async function measureConnections(steps: readonly number[]): Promise<ConnectionsAt[]> {
  const gateway = await startBenchGateway();
  const sockets: RawClient[] = [];
  const needle = Buffer.from('"event":"question.requested"');
  let arrivals: number[] = [];
  const out: ConnectionsAt[] = [];
  try {
    const agent = await RawClient.connect(gateway.wsUrl, gateway.agentToken, 'agent', 'bench-scale-agent');
    const operator = await RawClient.connect(gateway.wsUrl, gateway.operatorToken, 'cli', 'bench-scale-operator');
    const { session } = await operator.ok('sessions.create', { title: 'Scale' });
    await sleep(1000);
    const idleRss = gateway.rssMb();
    for (const target of steps) {
      await inParallel(target - sockets.length, 50, async () => {
        const c = await RawClient.connect(gateway.wsUrl, gateway.operatorToken, 'ui', 'bench-idle');
        c.onRaw = (data) => void (data.indexOf(needle) !== -1 && arrivals.push(performance.now()));
        sockets.push(c);
      });
      await sleep(1500);
      const rss = gateway.rssMb();
      // One async question (several may be pending in a session), heard by every idle socket.
      const times: number[] = [];
      for (let round_ = 0; round_ < 3; round_++) {
        arrivals = [];
        const t0 = performance.now();
        await agent.ok('question.request', { sessionKey: session.key, mode: 'async', questions: QUESTION });
        for (let waited = 0; arrivals.length < sockets.length && waited < 60_000; waited += 20) await sleep(20);
        times.push(Math.max(...arrivals) - t0);
      }
      out.push({ connections: sockets.length, rssPerConnectionKb: round(((rss - idleRss) * 1024) / sockets.length, 1), eventToLastMs: round(median(times), 1), delivered: arrivals.length });
    }
    agent.close();
    operator.close();
    return out;
  } finally {
    for (const c of sockets) c.close();
    await gateway.close();
  }
}

/** Adds sessions `from`..`to`-1 with `perSession` messages each, straight into the database file. */
async function seedSessions(dbFile: string, from: number, to: number, perSession: number): Promise<void> {
  const store = openSqliteStore(dbFile);
  try {
    const base = Date.UTC(2026, 0, 1);
    await store.transaction(async () => {
      for (let s = from; s < to; s++) {
        const key = `scale-${s}`;
        await store.createSession({ key, title: `Scale session ${s}`, createdBy: 'operator', agentId: 'agent', createdAtMs: base + s, lastMessageAtMs: base + s * 1000 + perSession });
        for (let m = 0; m < perSession; m++) {
          const role = m % 2 ? 'assistant' : 'user';
          await store.insertMessage({ id: `m-${s}-${m}`, sessionKey: key, role, text: `Message ${m} of session ${s}: a line of about the length people write.`, authorId: role === 'user' ? 'operator' : 'agent', createdAtMs: base + s * 1000 + m, seq: s * perSession + m + 1 });
        }
      }
    });
  } finally {
    await store.close();
  }
}

export async function measureSessions(steps: readonly number[], perSession = 100): Promise<SessionsAt[]> {
  const dir = mkdtempSync(join(tmpdir(), 'askdock-bench-scale-'));
  const out: SessionsAt[] = [];
  let seeded = 0;
  try {
    for (const target of steps) {
      const from = seeded;
      const gateway: BenchGateway = await startBenchGateway({ dir, seed: (db) => seedSessions(db, from, target, perSession) });
      seeded = target;
      try {
        const operator = await RawClient.connect(gateway.wsUrl, gateway.operatorToken, 'cli', 'bench-scale-operator');
        await operator.ok('sessions.list', {});
        const historyPageMs = await medianOf(21, async (i) => (await operator.timed('chat.history', { sessionKey: `scale-${(i * 7919) % target}` })).ms);
        let bytes = 0;
        const sessionsListMs = await medianOf(11, async () => {
          const r = await operator.timed('sessions.list', {});
          bytes = r.bytes;
          return r.ms;
        });
        out.push({ sessions: target, messagesPerSession: perSession, historyPageMs, sessionsListMs, sessionsListKb: round(bytes / 1024, 1) });
        operator.close();
      } finally {
        await gateway.close();
      }
    }
    return out;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function measureQuestions(steps: readonly number[], pending = 10): Promise<QuestionsAt[]> {
  const gateway = await startBenchGateway();
  const out: QuestionsAt[] = [];
  try {
    const agent = await RawClient.connect(gateway.wsUrl, gateway.agentToken, 'agent', 'bench-scale-agent');
    const operator = await RawClient.connect(gateway.wsUrl, gateway.operatorToken, 'cli', 'bench-scale-operator');
    const sessions: string[] = [];
    for (let i = 0; i < 20; i++) sessions.push((await operator.ok('sessions.create', { title: `Questions ${i}` })).session.key);
    let retained = 0;
    for (const target of steps) {
      // 50 in flight beside the pending ones stays under the per-agent limit of 100 pending questions.
      await inParallel(target - retained, 50, async (i) => {
        const { id } = await agent.ok('question.request', { sessionKey: sessions[i % sessions.length], mode: 'async', questions: QUESTION });
        await operator.ok('question.resolve', { id, answers: { env: ['Staging'] } });
      });
      retained = target;
      if (out.length === 0) for (let i = 0; i < pending; i++) await agent.ok('question.request', { sessionKey: sessions[i], mode: 'async', questions: QUESTION });
      let listBytes = 0;
      const questionListMs = await medianOf(7, async () => {
        const r = await operator.timed('question.list', {});
        listBytes = r.bytes;
        return r.ms;
      });
      let helloBytes = 0;
      const helloMs = await medianOf(9, async () => {
        const t0 = performance.now();
        const c = await RawClient.connect(gateway.wsUrl, gateway.operatorToken, 'ui', 'bench-hello');
        helloBytes = c.hello!.bytes;
        const ms = c.hello!.at - t0;
        c.close();
        return ms;
      });
      out.push({ retained: target, pending, questionListMs, questionListKb: round(listBytes / 1024, 1), helloMs, helloKb: round(helloBytes / 1024, 1) });
    }
    agent.close();
    operator.close();
    return out;
  } finally {
    await gateway.close();
  }
}

export async function measureScale(step: (what: string) => void): Promise<ScaleFigures> {
  step('scale: 1,000 then 10,000 idle operator connections');
  const connections = await measureConnections([1000, 10_000]);
  step('scale: 100 then 1,000 sessions x 100 messages');
  const sessions = await measureSessions([100, 1000]);
  step('scale: 1,000 then 10,000 retained questions');
  const questions = await measureQuestions([1000, 10_000]);
  return { connections, sessions, questions };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const t0 = performance.now();
  const figures = await measureScale((what) => process.stderr.write(`[${((performance.now() - t0) / 1000).toFixed(0)} s] ${what}\n`));
  process.stdout.write(JSON.stringify(figures, null, 2) + '\n');
}
