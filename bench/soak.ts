/**
 * `npm run soak [-- --minutes M] [-- --seed N] [-- --gateways G] [-- --db postgres://…]`: the gateway as a child process
 * under faults for M minutes (default 10). 20 simulated people (operator clients) answer after random pauses, sometimes
 * skip, sometimes race a second answer; 5 SDK agents ask (blocking with short timeouts, blocking withdrawn after a
 * while, async); sockets drop every few seconds and a gateway is SIGKILLed and restarted about once a minute.
 * `--gateways G` runs G gateways on one PostgreSQL database (D2): `--db`'s, in a fresh schema dropped at the end, or a
 * throwaway server's; every client is given all G URLs, starting at a different one, and moves on when its gateway dies
 * (D4). At the end every acknowledged question, answer and message is checked against a gateway: it prints a table and
 * exits 1 on any duplicate or loss.
 */
import { parseArgs } from 'node:util';
import type { GatewayClient } from '../src/client/client.ts';
import { createNodeClient } from '../src/client/node.ts';
import type { ChatMessage } from '../src/protocol/index.ts';
import type { GatewayConfig } from '../src/gateway/config.ts';
import { AgentSim, type AgentKind } from './soak/agents.ts';
import { Faults } from './soak/faults.ts';
import { Fleet } from './soak/fleet.ts';
import { Ledger, type Tally } from './soak/ledger.ts';
import { Person } from './soak/people.ts';
import { Random, sleep } from './soak/random.ts';

const PEOPLE = 20;
const AGENTS: Array<{ kind: AgentKind; sessions: number }> = [
  { kind: 'short', sessions: 2 },
  { kind: 'short', sessions: 2 },
  { kind: 'withdraws', sessions: 2 },
  { kind: 'async', sessions: 1 },
  { kind: 'async', sessions: 1 },
];
/** Long enough for a 30 s question to expire and an answer held up by a restart to land. */
const DRAIN_MS = 45_000;

const { values } = parseArgs({
  options: { minutes: { type: 'string', default: '10' }, seed: { type: 'string' }, gateways: { type: 'string', default: '1' }, db: { type: 'string' } },
});
const usage = (why: string): never => {
  process.stderr.write(`soak: ${why}\nusage: npm run soak -- [--minutes M] [--seed N] [--gateways G] [--db postgres://user:pass@host:port/db]\n`);
  process.exit(2);
};
const minutes = Number(values.minutes);
if (!(minutes > 0)) usage(`--minutes must be a positive number, got "${values.minutes}"`);
const gatewayCount = Number(values.gateways);
if (!Number.isInteger(gatewayCount) || gatewayCount < 1 || gatewayCount > 9) usage(`--gateways must be an integer 1..9, got "${values.gateways}"`);
if (values.db !== undefined && !/^postgres(ql)?:\/\//i.test(values.db))
  usage(`--db must be a postgres:// URL (several gateways share a PostgreSQL database), got "${values.db}"`);
const seed = values.seed !== undefined ? Number(values.seed) : Date.now() % 1_000_000_000;
const random = new Random(seed);
const started = Date.now();
const say = (line: string) => process.stderr.write(`[soak ${String(Math.round((Date.now() - started) / 1000)).padStart(4)} s] ${line}\n`);

const token = (id: string) => `soak-${id}-${seed}-0123456789`;
const personIds = Array.from({ length: PEOPLE }, (_, i) => `person${String(i + 1).padStart(2, '0')}`);
const agentIds = AGENTS.map((_, i) => `agent${i + 1}`);
const config: GatewayConfig = {
  identities: [
    ...personIds.map((id) => ({ id, token: token(id), role: 'operator' as const, scopes: ['operator.admin' as const] })),
    ...agentIds.map((id) => ({ id, token: token(id), role: 'agent' as const, scopes: ['agent.run' as const] })),
  ],
  policy: { tickIntervalMs: 5_000 },
};

say(`seed ${seed}: starting ${gatewayCount === 1 ? 'the gateway' : `${gatewayCount} gateways`}`);
const fleet = await Fleet.start(config, gatewayCount, values.db, say);
say(`on ${fleet.where}`);
const ledger = new Ledger();
let exitCode = 1;
try {
  const setup = await operator(personIds[0]);
  const sessionsOf = await Promise.all(
    AGENTS.map(async (a, i) => {
      const keys: string[] = [];
      for (let s = 0; s < a.sessions; s++) keys.push((await setup.request('sessions.create', { title: `${agentIds[i]} lane ${s + 1}`, agentId: agentIds[i] })).session.key);
      return keys;
    }),
  );
  setup.close();
  const allSessions = sessionsOf.flat();

  const people = personIds.map(
    (name, index) => new Person({ url: fleet.urlsFrom(index), token: token(name), name, index, people: PEOPLE, sessions: allSessions, ledger, seed: seed + index + 1, runSeed: seed }),
  );
  await Promise.all(people.map((p) => p.start()));
  const agents = AGENTS.map(
    (a, i) => new AgentSim({ url: fleet.urlsFrom(i), token: token(agentIds[i]), name: agentIds[i], kind: a.kind, sessions: sessionsOf[i], ledger, seed: seed + 100 + i }),
  );
  await Promise.all(agents.map((a) => a.start()));
  say(`${people.length} people and ${agents.length} agents connected; running ${minutes} min`);

  const clients = (): GatewayClient[] => [...people.map((p) => p.client), ...agents.map((a) => a.agent.client)];
  const faults = new Faults(fleet.gateways, clients, random, Math.min(60_000, (minutes * 60_000) / 2), say);
  faults.start();
  const progress = setInterval(() => say(`asked ${ledger.asks.size}, accepted ${ledger.accepted.length}, drops ${faults.log.drops}, kills ${faults.log.kills}`), 15_000);
  await sleep(minutes * 60_000);

  say('stopping faults and new questions; draining');
  await faults.stop();
  for (const p of people) p.stopChatting();
  await Promise.all(agents.map((a) => a.drain(DRAIN_MS)));
  await Promise.all(people.map((p) => Promise.allSettled([...p.work])));
  // Replies the agents should hear about arrive as events; give the last ones a moment.
  await sleep(2_000);
  clearInterval(progress);

  const checker = await operator(personIds[0]);
  const { questions } = await checker.request('question.list', {});
  const histories = new Map<string, ChatMessage[]>();
  for (const key of allSessions) histories.set(key, await fullHistory(checker, key));
  checker.close();
  const tally = ledger.verify(questions, histories);
  for (const p of people) await p.close();
  for (const a of agents) a.close();

  process.stdout.write(report(tally, faults.log) + '\n');
  for (const problem of tally.problems.slice(0, 30)) process.stdout.write(`  ${problem}\n`);
  exitCode = tally.duplicates === 0 && tally.lost === 0 ? 0 : 1;
} catch (err) {
  process.stderr.write(`soak: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
} finally {
  await fleet.close();
}
process.exit(exitCode);

async function operator(id: string): Promise<GatewayClient> {
  const client = createNodeClient({ url: fleet.urlsFrom(0), token: token(id), client: { name: `soak-${id}`, mode: 'cli' } });
  await client.start();
  return client;
}

async function fullHistory(client: GatewayClient, sessionKey: string): Promise<ChatMessage[]> {
  const all: ChatMessage[] = [];
  let before: string | undefined;
  for (;;) {
    const page = await client.request('chat.history', { sessionKey, limit: 500, ...(before ? { before } : {}) });
    all.unshift(...page.messages);
    if (!page.hasMore || page.messages.length === 0) return all;
    before = page.messages[0].id;
  }
}

function report(t: Tally, faults: Faults['log']): string {
  const rows: Array<[string, number | string]> = [
    ['questions asked', t.asked],
    ['answered', t.answered],
    ['expired', t.expired],
    ['skipped', t.skipped],
    ['cancelled', t.cancelled],
    ['raced answers (two people at once)', t.races],
    ['chat messages acknowledged', t.messages],
    ['socket drops', faults.drops],
    [gatewayCount > 1 ? 'gateway SIGKILL + restart (one of several)' : 'gateway SIGKILL + restart', `${faults.kills}${faults.restartMs.length ? ` (back in ${faults.restartMs.map((ms) => `${(ms / 1000).toFixed(1)} s`).join(', ')})` : ''}`],
    ['duplicates (must be 0)', t.duplicates],
    ['lost (must be 0)', t.lost],
  ];
  const width = Math.max(...rows.map(([k]) => k.length));
  const gateways = gatewayCount > 1 ? `${gatewayCount} gateways on PostgreSQL` : values.db ? '1 gateway on PostgreSQL' : '1 gateway on SQLite';
  const head = `askdock soak: ${minutes} min, ${gateways}, ${PEOPLE} people, ${AGENTS.length} agents, seed ${seed}`;
  return [head, '-'.repeat(head.length), ...rows.map(([k, v]) => `${k.padEnd(width)}  ${v}`), t.duplicates === 0 && t.lost === 0 ? 'PASS' : 'FAIL'].join('\n');
}
