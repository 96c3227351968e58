/**
 * U19: search over 1,000 sessions of 100 messages each (and a question in every tenth session), through the gateway's
 * `search` method on its SQLite FTS5 index, beside `chat.history` of one session in the same run.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { openSqliteStore } from '../src/gateway/store/sqlite.ts';
import { connectOperator, startBenchGateway } from './lib/bench-gateway.ts';
import { summarize, type Summary } from './lib/stats.ts';

export type SearchFigures = { sessions: number; messages: number; search: Summary; history: Summary; queries: Record<string, number> };

// Words people write, then rarer ones; the seeded text draws from them with a skew, as real chat does.
const COMMON = 'the deploy build staging production release test branch merge review fix error config token team please check'.split(' ');
const RARE = 'zebra quasar nimbus fjord walrus tundra obelisk sphinx cobalt lantern'.split(' ');
/** Queries from very common to rare, one and two words, whole and prefix. */
const QUERIES = ['deploy', 'staging release', 'rev', 'walrus', 'cobalt lantern', 'error config token'];

/** A small deterministic generator, so every run seeds the same text. */
function generator(seed: number): () => number {
  let x = seed >>> 0;
  return () => {
    x = (x * 1_664_525 + 1_013_904_223) >>> 0;
    return x / 2 ** 32;
  };
}

async function seed(dbFile: string, sessions: number, perSession: number): Promise<void> {
  const store = openSqliteStore(dbFile);
  const next = generator(20_261_203);
  const word = () => (next() < 0.97 ? COMMON[Math.floor(next() ** 2 * COMMON.length)] : RARE[Math.floor(next() * RARE.length)]);
  const base = Date.UTC(2026, 0, 1);
  try {
    await store.transaction(async () => {
      let seq = 0;
      for (let s = 0; s < sessions; s++) {
        const key = `search-${s}`;
        await store.createSession({ key, title: `Session ${s} ${word()}`, createdBy: 'operator', agentId: 'agent', createdAtMs: base + s, lastMessageAtMs: base + s * 1000 + perSession });
        for (let m = 0; m < perSession; m++) {
          const text = Array.from({ length: 8 + Math.floor(next() * 12) }, word).join(' ');
          await store.insertMessage({ id: `m-${s}-${m}`, sessionKey: key, role: m % 2 ? 'assistant' : 'user', text, authorId: m % 2 ? 'agent' : 'operator', createdAtMs: base + s * 1000 + m, seq: ++seq });
        }
        if (s % 10 === 0)
          await store.insertQuestion({
            id: `q-${s}`,
            sessionKey: key,
            askedBy: 'agent',
            mode: 'async',
            questions: [{ id: 'env', header: 'Environment', question: `Where should ${word()} go?`, options: [{ label: 'Staging' }, { label: 'Production' }] }],
            createdAtMs: base + s * 1000,
            expiresAtMs: null,
            status: 'answered',
            answers: { env: ['Staging'] },
          });
      }
    });
  } finally {
    await store.close();
  }
}

export async function measureSearch(sessions = 1000, perSession = 100, rounds = 20): Promise<SearchFigures> {
  const dir = mkdtempSync(join(tmpdir(), 'askdock-bench-search-'));
  const gateway = await startBenchGateway({ dir, seed: (db) => seed(db, sessions, perSession) });
  try {
    const operator = await connectOperator(gateway);
    const timed = async (call: () => Promise<unknown>) => {
      const t0 = performance.now();
      await call();
      return performance.now() - t0;
    };
    // Warm both paths (statements prepared, pages cached), then alternate them so load falls on both alike.
    for (const query of QUERIES) await operator.request('search', { query });
    await operator.request('chat.history', { sessionKey: 'search-500', limit: 100 });
    const search: number[] = [];
    const history: number[] = [];
    const queries: Record<string, number> = {};
    for (let r = 0; r < rounds; r++) {
      for (const query of QUERIES) {
        const t = await timed(() => operator.request('search', { query }));
        search.push(t);
        queries[query] = (queries[query] ?? 0) + t / rounds;
        history.push(await timed(() => operator.request('chat.history', { sessionKey: `search-${(r * 37) % sessions}`, limit: 100 })));
      }
    }
    operator.close();
    for (const q of Object.keys(queries)) queries[q] = Number(queries[q].toFixed(2));
    return { sessions, messages: sessions * perSession, search: summarize(search), history: summarize(history), queries };
  } finally {
    await gateway.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
