import { afterEach, describe, expect, it } from 'vitest';
import { connectEach, EVERYONE as ALL, item, startTestGateway, type TestGateway, type Who } from '../../testing/gateway-harness.ts';
import { freshSchema, type TestSchema } from '../../testing/postgres.ts';
import type { TestClient } from '../../testing/ws-client.ts';
import { createMemoryStore } from '../store/memory.ts';
import { openPostgresStore } from '../store/postgres/store.ts';
import { openSqliteStore } from '../store/sqlite.ts';
import type { SearchCandidate, Store } from '../store/types.ts';

/** The reads a search may make of its store; the gateway's own background reads (event fan-out) are not its work. */
const SEARCH_READS = new Set(['listSessions', 'search', 'getSession', 'getQuestion', 'listQuestions', 'getMessage', 'history']);

/**
 * A shared store's duty holder lists every pending question on its own timer (the absent askers' sweep, D3), whenever
 * that falls: not a search's read, which never lists questions beyond a session.
 */
const dutySweep = (name: string, args: unknown[]) => name === 'listQuestions' && (args[0] as { sessionKey?: string } | undefined)?.sessionKey === undefined;

type Kind = 'memory' | 'sqlite' | 'postgres';
const KINDS: Kind[] = ['memory', 'sqlite', 'postgres'];

let t: TestGateway | undefined;
let store: Store | undefined;
let schema: TestSchema | undefined;
afterEach(async () => {
  await t?.close();
  await store?.close();
  await schema?.drop();
  t = store = schema = undefined;
});

/** The store's work during a search: every call it answered, and the candidates its index gave. */
type Work = { calls: string[]; candidates: string[] };

/** A gateway on a store of `kind` whose calls are counted while `watch` is on. */
async function gatewayOn(kind: Kind) {
  const dir = (await import('node:fs')).mkdtempSync(`${(await import('node:os')).tmpdir()}/askdock-sv-`);
  if (kind === 'postgres') schema = await freshSchema('search');
  const inner: Store = kind === 'memory' ? createMemoryStore() : kind === 'sqlite' ? openSqliteStore(`${dir}/askdock.db`) : await openPostgresStore(schema!.url);
  let work: Work | undefined;
  const counted = new Proxy(inner, {
    get(target, name, receiver) {
      const value = Reflect.get(target, name, receiver) as unknown;
      if (typeof value !== 'function' || typeof name !== 'string') return value;
      return (...args: unknown[]) => {
        const out = (value as (...a: unknown[]) => unknown).apply(target, args);
        if (work && SEARCH_READS.has(name) && !dutySweep(name, args)) work.calls.push(name);
        if (work && name === 'search')
          void Promise.resolve(out).then((hits) => work?.candidates.push(...(hits as SearchCandidate[]).map((h) => `${h.kind}:${h.id}`).sort()));
        return out;
      };
    },
  });
  store = inner;
  t = await startTestGateway({ store: counted, dir });
  const c = await connectEach(t, ALL);
  const measure = async (who: Who, query: string, limit: number) => {
    work = { calls: [], candidates: [] };
    const results = (await c[who].call('search', { query, limit })).results.map((r) => `${r.kind}:${r.id}:${r.sessionTitle}`);
    const done = work;
    work = undefined;
    return { results, work: done };
  };
  return { c, measure };
}

/** A privileged question the agent asks in `sessionKey`, and an admin's reply to it saying `text`. */
async function privilegedReply(c: Record<Who, TestClient>, sessionKey: string, text: string, n: number) {
  const secret = item({ id: 'pin', header: 'Pin', question: 'Which pin?', options: [{ label: 'One' }, { label: 'Two' }] });
  const id = (await c.agent.call('question.request', { mode: 'async', sessionKey, privileged: true, questions: [secret] })).id;
  await c.admin.call('chat.send', { sessionKey, message: text, idempotencyKey: `key-secret-${n}`, replyTo: { questionId: id } });
}

/** Who may see the admin's reply to the agent's privileged question (A3): those who see every question and read sessions, and the asker. */
const SEES_REPLY: Who[] = ['admin', 'agent'];

describe('search visibility (A3, U19)', () => {
  it.each(KINDS)('[A3][U19] the visibility matrix: every identity kind searching hidden matches finds 0 hits (%s store)', async (kind) => {
    const { c, measure } = await gatewayOn(kind);
    const mine = (await c.guest.call('sessions.create', { title: 'guava plans' })).session.key;
    const theirs = (await c.guest2.call('sessions.create', { title: 'papaya plans' })).session.key;
    await c.guest2.call('chat.send', { sessionKey: theirs, message: 'papaya notes', idempotencyKey: 'key-guest2-1' });
    await privilegedReply(c, mine, 'quince secret', 1);
    const privileged = item({ id: 'lock', header: 'Lock', question: 'Which mango code?', options: [{ label: 'A' }, { label: 'B' }] });
    await c.agent.call('question.request', { mode: 'async', sessionKey: mine, privileged: true, questions: [privileged] });
    await c.agent.call('question.request', { mode: 'async', questions: [item({ id: 'solo', header: 'Solo', question: 'Which lychee?', options: [{ label: 'A' }, { label: 'B' }] })] });
    // The words each identity must find nothing for: every one of them is only in what that identity may not see.
    const hidden: Record<Who, string[]> = {
      admin: [],
      // The reply's words are also its question's answer, which operator.questions may see (not the reply itself).
      questions: ['papaya', 'guava'],
      guest: ['quince', 'papaya', 'mango', 'lychee'],
      guest2: ['quince', 'guava', 'mango', 'lychee'],
      reader: ['quince', 'mango', 'lychee'],
      writer: ['quince', 'mango', 'lychee'],
      agent: [],
      agent2: ['quince', 'papaya', 'guava', 'mango', 'lychee'],
    };
    for (const who of ALL)
      for (const word of hidden[who]) {
        const { results, work } = await measure(who, word, 1);
        expect({ who, word, results, candidates: work.candidates }).toEqual({ who, word, results: [], candidates: [] });
      }
    // The grant as well: those who may see the reply find it.
    for (const who of SEES_REPLY) expect((await measure(who, 'quince', 5)).results.filter((r) => r.startsWith('message:')), who).toHaveLength(1);
    // operator.questions finds the privileged question, but no title of a session it may not read.
    expect((await measure('questions', 'mango', 5)).results).toEqual([expect.stringMatching(/^question:.*:$/)]);
  });

  it.each(KINDS)('[A3][U19] hidden matches change neither the count, the candidates nor the work done (%s store)', async (kind) => {
    const { c, measure } = await gatewayOn(kind);
    const key = (await c.guest.call('sessions.create', { title: 'kitchen' })).session.key;
    await c.guest.call('chat.send', { sessionKey: key, message: 'tart one', idempotencyKey: 'key-guest-1' });
    const seen = async () => {
      const out: Record<string, unknown> = {};
      // operator.questions finds the questions the replies answered (their answers), so it is left out here.
      for (const who of ALL) if (!SEES_REPLY.includes(who) && who !== 'questions') for (const limit of [1, 2]) out[`${who}/${limit}`] = await measure(who, 'tart', limit);
      return out;
    };
    const before = await seen();
    // Two replies to privileged questions say the word too, newer than the one message everyone may find.
    await privilegedReply(c, key, 'tart secret', 1);
    await privilegedReply(c, key, 'tart hidden', 2);
    expect(await seen()).toEqual(before);
    // Those who may read them do find them: the planted replies are real matches.
    expect((await measure('admin', 'tart', 5)).results.filter((r) => r.startsWith('message:'))).toHaveLength(3);
  });
});
