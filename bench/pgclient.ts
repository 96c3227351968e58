import { randomBytes } from 'node:crypto';
import pg from 'pg';
import postgres from 'postgres';
import { meterCpu } from './lib/cpu.ts';
import { openRunSchema } from './lib/postgres-schema.ts';
import { recordRoundTrip, type RoundTripStatements, type Sent } from './lib/pg-statements.ts';
import { bind, splitStatements, type Bound } from './lib/sql-split.ts';

/** One database round trip: the engine's text (or one statement with parameters), or its statements bound (`bound`). */
type Trip = Sent | Bound[];
type Opened = { connections: ((trip: Trip) => Promise<unknown>)[]; close(): Promise<void> };
export type ClientName = 'pg' | 'postgres' | 'postgres, bound, one batch';
type ClientUnderTest = { name: ClientName; bound: boolean; open(url: string, count: number, channel: string, heard: () => void): Promise<Opened> };

export type PgClientBlock = { client: ClientName; roundTrips: number; clientCpuMs: number; databaseCpuMs: number | null };
export type PgClientFigures = {
  /** Database round trips of one question round trip: the ask's and the answer's (each a transaction). */
  databaseRoundTrips: { ask: number; answer: number };
  chains: number;
  /** The measured blocks, the clients taking turns. */
  blocks: PgClientBlock[];
};

const CHAINS = 4;
const ROUND_TRIPS_PER_BLOCK = 400;
/** Measured blocks, after one warm-up block each, each client first, second and third once in each of two rounds. */
const ORDER: ClientName[] = ['pg', 'postgres', 'postgres, bound, one batch', 'postgres, bound, one batch', 'postgres', 'pg'];

const nodePg: ClientUnderTest = {
  name: 'pg',
  bound: false,
  async open(url, count, channel, heard) {
    const clients = await Promise.all(
      Array.from({ length: count + 1 }, async () => {
        const c = new pg.Client({ connectionString: url });
        await c.connect();
        return c;
      }),
    );
    const listener = clients.pop()!;
    listener.on('notification', heard);
    await listener.query(`LISTEN "${channel}"`);
    const send = (c: pg.Client, s: Sent) => (s.kind === 'simple' ? c.query(s.text) : c.query({ name: s.name, text: s.text, values: s.values }));
    return {
      connections: clients.map((c) => (trip: Trip) => send(c, trip as Sent)),
      close: async () => void (await Promise.all([...clients, listener].map((c) => c.end()))),
    };
  },
};

/** `postgres` sending the engine's texts (`bound` false), or each statement with its parameters, all in one batch. */
const postgresJs = (bound: boolean): ClientUnderTest => ({
  name: bound ? 'postgres, bound, one batch' : 'postgres',
  bound,
  async open(url, count, channel, heard) {
    // Its connections work in the schema as the URL's `options` make pg's do.
    const u = new URL(url);
    const searchPath = /search_path=(\S+)/.exec(u.searchParams.get('options') ?? '')?.[1];
    u.searchParams.delete('options');
    const sql = postgres(u.toString(), { max: count + 1, prepare: true, onnotice: () => {}, connection: searchPath ? { search_path: searchPath } : {} });
    const reserved = await Promise.all(Array.from({ length: count }, () => sql.reserve()));
    await sql.listen(channel, heard);
    const texts = (r: postgres.ReservedSql, s: Sent) => (s.kind === 'simple' ? r.unsafe(s.text).simple() : r.unsafe(s.text, s.values as never[], { prepare: true }));
    const batch = (r: postgres.ReservedSql, b: Bound[]) => r.batch(b.map((x) => r.unsafe(x.sql, x.params as never[], { prepare: x.prepared, simple: false })));
    return {
      connections: reserved.map((r) => (trip: Trip) => (bound ? batch(r, trip as Bound[]) : texts(r, trip as Sent))),
      close: async () => {
        for (const r of reserved) r.release();
        await sql.end({ timeout: 5 });
      },
    };
  },
});

/** The recorded round trip with a fresh question id, in chain `chain`'s session: texts made before a block is timed. */
function roundTripFor(rec: RoundTripStatements, chain: number, bound: boolean): Trip[] {
  const question = `q_${randomBytes(12).toString('base64url')}`.slice(0, rec.questionId.length);
  const swap = (s: string) => s.replaceAll(rec.questionId, question).replaceAll(rec.sessionKeys[0], rec.sessionKeys[chain]);
  const one = (s: Sent): Sent => (s.kind === 'simple' ? { kind: 'simple', text: swap(s.text) } : { ...s, text: s.text, values: s.values.map((v) => (typeof v === 'string' ? swap(v) : v)) });
  const trips = [...rec.ask, ...rec.answer].map(one);
  if (!bound) return trips;
  return trips.map((s) => (s.kind === 'simple' ? splitStatements(s.text).map((x) => bind(x, rec.prepares)) : [{ sql: s.text, params: s.values as string[], prepared: true }]));
}

/** One block: `ROUND_TRIPS_PER_BLOCK` round trips over CHAINS connections, the client's process CPU and PostgreSQL's metered. */
async function block(client: ClientUnderTest, url: string, rec: RoundTripStatements, channel: string, serverPid: number | undefined): Promise<PgClientBlock> {
  let heard = 0;
  const opened = await client.open(url, CHAINS, channel, () => heard++);
  try {
    // The engine prepares its statements by SQL; a client that binds parameters prepares them itself.
    if (!client.bound) for (const c of opened.connections) for (const [name, text] of rec.prepares) await c({ kind: 'simple', text: `PREPARE ${name} AS ${text}` });
    const perChain = Math.ceil(ROUND_TRIPS_PER_BLOCK / CHAINS);
    const work = opened.connections.map((_, i) => Array.from({ length: perChain }, () => roundTripFor(rec, i, client.bound)));
    const heardBefore = heard;
    const done = meterCpu([], serverPid);
    await Promise.all(
      opened.connections.map(async (c, i) => {
        for (const trips of work[i]) for (const trip of trips) await c(trip);
      }),
    );
    // Each unit's commit notifies every listener: the client's share includes hearing them.
    const expected = heardBefore + perChain * CHAINS * 2;
    for (let waited = 0; heard < expected && waited < 10_000; waited += 5) await new Promise((ok) => setTimeout(ok, 5));
    const cpu = done();
    if (heard < expected) throw new Error(`pgclient bench: ${client.name} heard ${heard - heardBefore} of ${expected - heardBefore} notifications`);
    const roundTrips = perChain * CHAINS;
    return { client: client.name, roundTrips, clientCpuMs: cpu.benchMs, databaseCpuMs: cpu.databaseMs };
  } finally {
    await opened.close();
  }
}

/**
 * D5 (issue 57 item 1): the statements one question round trip of the PostgreSQL engine sends (recorded from a gateway
 * on a throwaway server started as the scale-out rows' are), replayed through `pg` and through `postgres` with the
 * same texts: a query of several statements by the simple protocol, each statement prepared once per connection
 * (PREPARE, then EXECUTE by name). The clients take turns in one sitting; each block's CPU is this process's.
 */
export async function measurePgClient(step: (what: string) => void, order: ClientName[] = ORDER): Promise<PgClientFigures> {
  const schema = await openRunSchema(process.env.ASKDOCK_BENCH_POSTGRES_URL, 'askdock_pgclient', { fsync: true });
  try {
    step('database client: recording one question round trip of a PostgreSQL gateway');
    const rec = await recordRoundTrip(schema.url, CHAINS);
    const notify = /pg_notify\('([^']+)'/.exec(rec.ask.map((s) => s.text).join('\n'))?.[1];
    if (!notify) throw new Error('pgclient bench: the recorded commit sends no notification');
    const clients = Object.fromEntries([nodePg, postgresJs(false), postgresJs(true)].map((c) => [c.name, c])) as Record<ClientName, ClientUnderTest>;
    const blocks: PgClientBlock[] = [];
    const warm = [...new Set(order)];
    for (const name of [...warm, ...order]) {
      step(`database client: ${ROUND_TRIPS_PER_BLOCK} round trips through ${name}`);
      blocks.push(await block(clients[name], schema.url, rec, notify, schema.serverPid));
    }
    return {
      databaseRoundTrips: { ask: rec.ask.length, answer: rec.answer.length },
      chains: CHAINS,
      // The first of each warmed that client up.
      blocks: blocks.slice(warm.length),
    };
  } finally {
    await schema.drop().catch(() => undefined);
  }
}
