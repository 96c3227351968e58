/**
 * `askdock policy check [--config FILE] [--agent A] [--json] -- TOOL-RULE` (G9): what the approval policy decides for
 * one request, and every rule that matched. With --config it reads that config file's `approvals` (and the file it
 * names) and needs no gateway; without, it asks the running gateway (policy.check). Exit 0 printed, 1 a policy that
 * does not load or a gateway failure, 2 bad arguments.
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { compilePolicy, decide } from '../policy/index.ts';
import type { PolicyCheckResult } from '../protocol/policy.ts';
import { terminalJson, terminalText } from '../lib/terminal-text.ts';
import { clientFlags, EXIT, usageError } from './args.ts';
import { withGateway } from './policy-client.ts';
import { parseToolRule, type ToolCall } from './tool-rule.ts';

export const CHECK_USAGE = [
  "usage: askdock policy check [--config FILE] [--agent A] [--input JSON] [--json] [--url ws://127.0.0.1:7420] [--token T] -- TOOL-RULE",
  "       e.g. askdock policy check -- 'Bash(git push origin main)'",
  'exit: 0 printed, 1 the policy does not load or the gateway failed, 2 bad arguments',
].join('\n');

const COMMAND = 'policy check';

/** The decision and its rules as a person reads them: the verdict, then one line a rule. */
export function checkLines(request: string, r: PolicyCheckResult): string[] {
  if (r.matchedRules.length === 0) return [`${request}: ${r.decision} (no rule matched)`];
  const idWidth = Math.max(...r.matchedRules.map((m) => m.id.length));
  return [`${request}: ${r.decision}`, ...r.matchedRules.map((m) => `  ${m.decision.padEnd(5)}  ${m.id.padEnd(idWidth)}  ${m.rule}  (${m.layer})`)];
}

/** G9/G10: the config file's policy decides `call`; a policy that does not load is every problem with its place. */
async function checkWithConfig(file: string, call: ToolCall, agent: string | undefined): Promise<{ ok: true; result: PolicyCheckResult } | { ok: false; lines: string[] }> {
  let config: unknown;
  try {
    config = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    return { ok: false, lines: [`${file}: ${err instanceof Error ? err.message : String(err)}`] };
  }
  const approvals = config && typeof config === 'object' ? (config as Record<string, unknown>).approvals : undefined;
  const compiled = compilePolicy(approvals ?? {}, { where: 'approvals', baseDir: dirname(resolve(file)) });
  if (!compiled.ok) return { ok: false, lines: compiled.problems.map((p) => `${file}: ${p.path}: ${p.problem}`) };
  const verdict = await decide(compiled.policy, { tool: call.tool, input: call.input, cwd: process.cwd(), ...(agent ? { agent } : {}) });
  return { ok: true, result: { decision: verdict.decision, matchedRules: verdict.matchedRules } };
}

export async function run(argv: string[]): Promise<number> {
  const split = argv.indexOf('--');
  const own = split >= 0 ? argv.slice(0, split) : argv;
  const rest = split >= 0 ? argv.slice(split + 1) : [];
  const values = clientFlags(COMMAND, own, CHECK_USAGE, { config: { type: 'string' }, agent: { type: 'string' }, input: { type: 'string' }, json: { type: 'boolean' } });
  if (typeof values === 'number') return values;
  let call: ToolCall;
  try {
    if (rest.length === 0) throw new Error("TOOL-RULE is missing: askdock policy check -- 'Bash(git push origin main)'");
    if (rest.length > 1) throw new Error(`TOOL-RULE: one request at a time; quote it whole ('${rest.join(' ')}')`);
    call = parseToolRule(rest[0], values.input as string | undefined);
    if (values.agent !== undefined && !String(values.agent).trim()) throw new Error('--agent: must not be empty');
  } catch (err) {
    return usageError(COMMAND, err, CHECK_USAGE);
  }
  const agentId = values.agent as string | undefined;
  const print = (result: PolicyCheckResult) => {
    if (values.json) process.stdout.write(terminalJson({ decision: result.decision, matchedRules: result.matchedRules.map(({ id, rule, decision, layer }) => ({ id, rule, decision, layer })) }) + '\n');
    else process.stdout.write(checkLines(rest[0].trim(), result).map((line) => terminalText(line) + '\n').join(''));
    return EXIT.answered;
  };
  if (typeof values.config === 'string') {
    const checked = await checkWithConfig(values.config, call, agentId);
    if (!checked.ok) {
      process.stderr.write(checked.lines.map((line) => `askdock ${COMMAND}: ${terminalText(line)}\n`).join(''));
      return EXIT.failure;
    }
    return print(checked.result);
  }
  // An agent checks for itself only (G12): checking for another agent takes an operator.admin token, which the local
  // setup's identities file has.
  return withGateway(COMMAND, CHECK_USAGE, values, agentId ? 'operator' : 'agent', async (agent) =>
    print(await agent.client.request('policy.check', { tool: call.tool, input: call.input, cwd: process.cwd(), ...(agentId ? { agent: agentId } : {}) })),
  );
}
