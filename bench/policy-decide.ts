/**
 * G11: where a policy decision's CPU goes, in process (no gateway): 1,000 rules, distinct commands, after a warm-up.
 *   node --import tsx bench/policy-decide.ts [count]      (add --cpu-prof to see the functions)
 */
import { approvalDigest, compilePolicy, decide, offeredRule, type ApprovalFacts } from '../src/policy/index.ts';
import { plainWords, splitCommand } from '../src/policy/parts.ts';
import { parseShell } from '../src/policy/sh-parse.ts';
import { distinctCommands } from './lib/policy-commands.ts';
import { benchRules } from './policy.ts';

const n = Number(process.argv[2] ?? 1000);
const res = compilePolicy({ rules: benchRules(1000), unmatched: 'ask' });
if (!res.ok) throw new Error(JSON.stringify(res.problems));
const policy = res.policy;
const facts = (command: string): ApprovalFacts => ({ tool: 'Bash', input: { command }, cwd: '/p', agent: 'a' });
const cpuMs = () => {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1000;
};
const per = (label: string, count: number, work: () => Promise<unknown> | unknown) => async () => {
  const c0 = cpuMs();
  await work();
  process.stdout.write(`${label.padEnd(52)} ${(((cpuMs() - c0) / count) * 1000).toFixed(0).padStart(6)} us CPU each\n`);
};
for (const c of distinctCommands(50, 9)) await decide(policy, facts(c)); // the parser compiled and started, the index built
const cmds = distinctCommands(n, 1);
const again = distinctCommands(n, 2);
const more = distinctCommands(n, 3);
await per(`decide, ${n} different commands`, n, async () => {
  for (const c of cmds) await decide(policy, facts(c));
})();
await per('  of which the lexer (splitCommand)', n, () => again.forEach((c) => splitCommand(c)))();
await per('  of which mvdan/sh (parseShell)', n, async () => {
  for (const c of again) await parseShell(c, { keepComments: false });
})();
await per('decide, the same commands again (cached parse)', 400, async () => {
  for (const c of cmds.slice(-400)) await decide(policy, facts(c));
})();
await per('decide, an MCP tool call', n, async () => {
  for (let i = 0; i < n; i++) await decide(policy, { tool: 'mcp__server7__create', input: { size: i }, agent: 'a' });
})();
await per('approvalDigest + offeredRule (the gateway adds these)', n, () => more.forEach((c) => (approvalDigest(facts(c)), offeredRule(facts(c)))))();
const plain = distinctCommands(n, 4).filter((c) => plainWords(c) !== null);
const compound = distinctCommands(n, 5).filter((c) => plainWords(c) === null);
await per(`decide, ${plain.length} commands of plain words (no parse)`, plain.length, async () => {
  for (const c of plain) await decide(policy, facts(c));
})();
await per(`decide, ${compound.length} other commands (lexer + mvdan/sh)`, compound.length, async () => {
  for (const c of compound) await decide(policy, facts(c));
})();
