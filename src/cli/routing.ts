/**
 * E10: `askdock routing test`: which route a question would follow and whom each step reaches. With --config it is
 * worked out from that config file alone (no gateway); without, the running gateway answers (routing.test), found as
 * `askdock ask` finds it. Exit 0 with the answer, 1 when the config's routing has faults (each named) or the gateway
 * failed, 2 on bad flags.
 */
import { readFileSync } from 'node:fs';
import { DateTime } from 'luxon';
import { ConfigError, loadConfig } from '../gateway/auth.ts';
import { DEFAULT_TIMEOUT_MS, MAX_TIMEOUT_MS, MIN_TIMEOUT_MS } from '../protocol/rules.ts';
import { clampTimeoutMs } from '../protocol/request-rules.ts';
import { routeToolMatcher } from '../policy/index.ts';
import { ASK_KINDS, dryRun, parseRouting, requestOfRule, type AskFacts, type AskKind } from '../routing/index.ts';
import { EXIT, intFlag, usageError } from './args.ts';
import { readFlags } from './flags.ts';
import { printDryRun } from './routing-print.ts';
import { testOnGateway } from './routing-remote.ts';
import { terminalJson, terminalText } from '../lib/terminal-text.ts';

export const ROUTING_USAGE = [
  'usage: askdock routing test [--config FILE] [--kind question|approval|elicitation|secret] [--agent A] [--source S]',
  '                            [--session KEY] [--tool RULE] [--at ISO-TIME] [--timeout S] [--json]',
  '                            [--url ws://127.0.0.1:7420] [--token T]   (without --config: the running gateway answers)',
].join('\n');

const FLAGS = {
  config: { type: 'string' }, kind: { type: 'string' }, agent: { type: 'string' }, source: { type: 'string' }, session: { type: 'string' },
  tool: { type: 'string' }, at: { type: 'string' }, timeout: { type: 'string' }, json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' },
  url: { type: 'string' }, token: { type: 'string' },
} as const;

type TestArgs = { config?: string; facts: AskFacts; atMs: number; timeoutMs: number; json: boolean; url?: string; token?: string; toolRule?: string };

function readArgs(argv: string[]): TestArgs | 'help' | string[] {
  const { values, positionals, problems } = readFlags(argv, FLAGS, 'routing test');
  if (values.help) return 'help';
  const v = values as Record<string, string | undefined>;
  if (positionals.length) problems.push(`unexpected argument "${positionals[0]}"`);
  if (v.config !== undefined && (v.url !== undefined || v.token !== undefined)) problems.push('--url and --token ask the running gateway: leave them out with --config');
  const tool = v.tool === undefined ? undefined : requestOfRule(v.tool);
  if (v.tool !== undefined && !tool) problems.push(`--tool: must be a tool request such as "Bash(git push origin main)" or "mcp__github__create_issue", got "${v.tool}"`);
  const kind = v.kind ?? (tool ? 'approval' : 'question');
  if (!(ASK_KINDS as readonly string[]).includes(kind)) problems.push(`--kind: must be one of ${ASK_KINDS.join(', ')}, got "${kind}"`);
  else if (tool && kind !== 'approval') problems.push('--tool: only an approval names a tool (leave out --kind, or give --kind approval)');
  // E10: any ISO time; one without an offset is this machine's local time, as ISO 8601 reads it.
  const at = v.at === undefined ? null : DateTime.fromISO(v.at, { setZone: true });
  if (at && !at.isValid)
    problems.push(`--at: must be an ISO time such as 2026-03-25T10:00+01:00, 2026-03-25T09:00Z or 2026-03-25T10:00 (local time), got "${v.at}"`);
  let timeoutS: number | undefined;
  try {
    timeoutS = intFlag('--timeout', v.timeout, 'a whole number of seconds');
  } catch (err) {
    problems.push((err as Error).message);
  }
  if (timeoutS !== undefined && (timeoutS * 1000 < MIN_TIMEOUT_MS || timeoutS * 1000 > MAX_TIMEOUT_MS))
    problems.push(`--timeout: must be ${MIN_TIMEOUT_MS / 1000}..${MAX_TIMEOUT_MS / 1000} seconds (a question's timeout), got ${timeoutS}`);
  if (problems.length) return problems;
  const facts: AskFacts = { kind: kind as AskKind, ...(v.agent ? { agent: v.agent } : {}), ...(v.source ? { source: v.source } : {}), ...(v.session ? { session: v.session } : {}), ...(tool ? { tool } : {}) };
  return {
    ...(v.config !== undefined ? { config: v.config } : {}),
    ...(v.url !== undefined ? { url: v.url } : {}),
    ...(v.token !== undefined ? { token: v.token } : {}),
    ...(v.tool !== undefined ? { toolRule: v.tool } : {}),
    facts,
    atMs: at ? at.toMillis() : Date.now(),
    timeoutMs: timeoutS === undefined ? DEFAULT_TIMEOUT_MS : clampTimeoutMs(timeoutS * 1000),
    json: values.json === true,
  };
}

async function test(argv: string[]): Promise<number> {
  const args = readArgs(argv);
  if (args === 'help') {
    process.stdout.write(ROUTING_USAGE + '\n');
    return 0;
  }
  if (Array.isArray(args)) return usageError('routing test', new Error(args.join('\n')), ROUTING_USAGE);
  if (args.config === undefined) return testOnGateway(args, ROUTING_USAGE);
  return testConfigFile({ ...args, config: args.config });
}

function testConfigFile(args: TestArgs & { config: string }): number {
  let identities: string[];
  let raw: unknown;
  try {
    identities = loadConfig(args.config).identities.map((i) => i.id);
    raw = (JSON.parse(readFileSync(args.config, 'utf8')) as { routing?: unknown }).routing;
  } catch (err) {
    process.stderr.write(`askdock routing test: ${terminalText(err instanceof ConfigError ? err.message : String(err))}\n`);
    return EXIT.failure;
  }
  const parsed = parseRouting(raw, { identities, tools: routeToolMatcher });
  if (!parsed.ok) {
    for (const p of parsed.problems) process.stderr.write(`askdock routing test: config ${terminalText(args.config)}: ${terminalText(`${p.path}: ${p.problem}`)}\n`);
    return EXIT.failure;
  }
  const result = dryRun({ routing: parsed.routing, facts: args.facts, atMs: args.atMs, timeoutMs: args.timeoutMs, tools: routeToolMatcher, identities });
  process.stdout.write(args.json ? terminalJson(result) + '\n' : printDryRun(result));
  return EXIT.answered;
}

export async function run(argv: string[]): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub === 'test') return test(rest);
  if (sub === '--help' || sub === '-h' || sub === undefined) {
    (sub ? process.stdout : process.stderr).write(ROUTING_USAGE + '\n');
    return sub ? 0 : EXIT.usage;
  }
  return usageError('routing', new Error(`unknown subcommand "${sub}" (askdock routing test ...)`), ROUTING_USAGE);
}
