import { ratio } from './lib/stats.ts';
import { ms, pair, times, type Row } from './lib/table.ts';
import type { PolicyFigures } from './policy.ts';

/** G11 (issue 54): a policy decision adds at most this much gateway CPU to a question.request, at 1,000 rules. */
export const POLICY_AIM_MS = 0.1;

const share = (part: number | null, whole: number | null) => (part === null || whole === null || !(whole > 0) ? 'n/a' : `${((100 * part) / whole).toFixed(0)} % of plain`);

/**
 * G11: an approval the policy decides (a different command each time), beside a plain question.request on the same
 * gateway; and the decision alone (decide() in the bench's process, the same rules, other different commands). Every
 * cost is given absolute and as a share of the plain request's CPU measured in the same run, which a loaded machine
 * slows alike.
 */
export function policyRows(f: PolicyFigures): Row[] {
  const s = `Approval policy (${f.rules.toLocaleString('en')} rules, ${f.distinctCommands} different commands)`;
  const cpu = (x: number | null) => (x === null ? 'n/a' : ms(x));
  const adds = f.decisionCpuMs !== null && f.plainCpuMs !== null ? f.decisionCpuMs - f.plainCpuMs : null;
  return [
    { section: s, figure: 'question.request {approval} decided, p50 / p99', measured: pair(f.decision.p50, f.decision.p99), baseline: `plain question.request ${pair(f.plain.p50, f.plain.p99)}`, ratio: times(ratio(f.decision.p50, f.plain.p50)), aim: '', met: null },
    { section: s, figure: 'gateway CPU per request', measured: cpu(f.decisionCpuMs), baseline: `plain ${cpu(f.plainCpuMs)}`, ratio: f.decisionCpuMs !== null && f.plainCpuMs !== null ? times(ratio(f.decisionCpuMs, f.plainCpuMs)) : 'n/a', aim: '', met: null },
    { section: s, figure: '  a decided request adds (decided - plain: the decision, its notice message, the digest)', measured: cpu(adds), baseline: '', ratio: share(adds, f.plainCpuMs), aim: '', met: null },
    { section: s, figure: '  the decision itself (decide(), in process)', measured: ms(f.decideCpuMs), baseline: `plain ${cpu(f.plainCpuMs)}`, ratio: share(f.decideCpuMs, f.plainCpuMs), aim: `<= ${POLICY_AIM_MS} ms`, met: f.decideCpuMs <= POLICY_AIM_MS },
  ];
}
