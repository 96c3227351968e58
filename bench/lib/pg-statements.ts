import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { createNodeClient } from '../../src/client/node.ts';
import type { GatewayClient } from '../../src/client/client.ts';
import { startGateway } from '../../src/gateway/gateway.ts';
import { memoryLogger } from '../../src/gateway/infra/logger.ts';
import { benchIdentities } from './bench-gateway.ts';

/**
 * One database round trip as the PostgreSQL engine sent it: a query of one or more statements with their values written
 * in (`simple`), or one statement with its parameters, prepared under a name (`extended`).
 */
export type Sent = { kind: 'simple'; text: string } | { kind: 'extended'; name: string; text: string; values: unknown[] };

/**
 * A question round trip's statements as one PostgreSQL gateway sends them once warm: the ask's unit and the answer's
 * (each a transaction on one connection, BEGIN to its commit's notification), the statements prepared by SQL they
 * execute (`prepares`, by name), and the ids written in them, to be replaced by a replay's own.
 */
export type RoundTripStatements = {
  ask: Sent[];
  answer: Sent[];
  prepares: Map<string, string>;
  questionId: string;
  /** Sessions made for the replay's chains: the recorded round trip ran in the first. */
  sessionKeys: string[];
};

/** `PREPARE askdock_s7_2 AS <sql>; EXECUTE askdock_s7_2…`: the engine's per-connection name, its statement number first. */
const PREPARE = /PREPARE (askdock_s\d+)_\d+ AS (.*?); (?=EXECUTE \1_\d+)/gs;
/** A per-connection name as one name per statement, so a replay's connections prepare each once, by the same name. */
const oneName = (text: string) => text.replace(/\b(askdock_s\d+)_\d+\b/g, '$1');

/**
 * Records, through `pg`'s own `Client.query`, what an in-process gateway on `url` sends for question round trips in
 * one session (after `warm` of them, which prepare the statements on the connections they use), and makes `sessions`
 * sessions for a replay. The database at `url` is left migrated, holding those sessions.
 */
export async function recordRoundTrip(url: string, sessions: number, warm = 12): Promise<RoundTripStatements> {
  const dir = mkdtempSync(join(tmpdir(), 'askdock-bench-pgclient-'));
  const { config, operatorToken, agentToken } = benchIdentities();
  const configPath = join(dir, 'config.json');
  writeFileSync(configPath, JSON.stringify(config));
  const query = pg.Client.prototype.query as (...args: unknown[]) => unknown;
  const clients: GatewayClient[] = [];
  const sent: { client: pg.Client; what: Sent }[] = [];
  let on = false;
  // Every statement prepared by SQL since the gateway started, on whichever connection (sessions.create prepares some).
  const prepares = new Map<string, string>();
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const a = args[0];
    if (typeof a === 'string') for (const m of a.matchAll(PREPARE)) prepares.set(m[1], m[2]);
    if (on) sent.push({ client: this, what: typeof a === 'string' ? { kind: 'simple', text: a } : extended(a as pg.QueryConfig) });
    return query.apply(this, args);
  } as never;
  let gw: Awaited<ReturnType<typeof startGateway>> | undefined;
  try {
    gw = await startGateway({ port: 0, dbPath: url, configPath, log: memoryLogger().log, uiDir: join(dir, 'no-ui') });
    const wsUrl = gw.wsUrl;
    const open = async (token: string, name: string) => {
      const c = createNodeClient({ url: wsUrl, token, client: { name, mode: 'cli' } });
      clients.push(c);
      await c.start();
      return c;
    };
    const agent = await open(agentToken, 'pgclient-agent');
    const operator = await open(operatorToken, 'pgclient-operator');
    const sessionKeys: string[] = [];
    for (let i = 0; i < sessions; i++) sessionKeys.push((await operator.request('sessions.create', { title: `client ${i}`, agentId: 'agent' })).session.key);
    const questions = [{ id: 'env', header: 'Environment', question: 'Where to?', options: [{ label: 'Staging' }, { label: 'Production' }] }];
    let ask: Sent[] = [];
    let answer: Sent[] = [];
    let questionId = '';
    for (let round = 0; round <= warm; round++) {
      sent.length = 0;
      on = true;
      const { id } = await agent.request('question.request', { sessionKey: sessionKeys[0], questions });
      const asked = unitOf(sent);
      sent.length = 0;
      await operator.request('question.resolve', { id, answers: { env: ['Staging'] } });
      const answered = unitOf(sent);
      on = false;
      // A unit on a connection new to a write it puts off sends that write's PREPARE as a round trip of its own (once
      // per connection): the round trip kept is a warm one, with the fewest.
      if (round < warm / 2 || (ask.length > 0 && ask.length + answer.length < asked.length + answered.length)) continue;
      [ask, answer, questionId] = [asked, answered, id];
    }
    // A replay's connections prepare every statement first: what the warm engine sends executes them by name only.
    const executing = (s: Sent): Sent => (s.kind === 'simple' ? { kind: 'simple', text: oneName(s.text.replace(PREPARE, '')) } : s);
    return { ask: ask.map(executing), answer: answer.map(executing), prepares, questionId, sessionKeys };
  } finally {
    on = false;
    pg.Client.prototype.query = query as never;
    for (const c of clients) c.close();
    await gw?.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

function extended(c: pg.QueryConfig): Sent {
  return { kind: 'extended', name: c.name ?? '', text: c.text, values: [...(c.values ?? [])] };
}

/**
 * The unit's round trips among what was sent meanwhile: on the connection that began a transaction, from its BEGIN to
 * its commit's notification (the gateway's own clock, e.g. its heartbeat, uses other connections meanwhile).
 */
function unitOf(sent: { client: pg.Client; what: Sent }[]): Sent[] {
  const start = sent.findIndex((s) => s.what.kind === 'simple' && s.what.text.startsWith('BEGIN'));
  if (start < 0) throw new Error('pgclient bench: no transaction among the statements sent');
  const client = sent[start].client;
  const unit: Sent[] = [];
  for (const s of sent.slice(start)) {
    if (s.client !== client) continue;
    unit.push(s.what);
    if (s.what.kind === 'simple' && s.what.text.includes('pg_notify(')) return unit;
  }
  throw new Error('pgclient bench: the transaction sent no commit');
}
