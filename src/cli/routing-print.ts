/** E10: what `askdock routing test` prints: the route, each step's time and people, the steps past the timeout, the end. */
import { formatDuration, type Plan, type PlannedStep, type RouteChoice } from '../routing/index.ts';
import { terminalJson, terminalText } from '../lib/terminal-text.ts';

export interface PrintInput { choice: RouteChoice | null; plan: Plan | null; atMs: number; timeoutMs: number; json: boolean }

const REASONS: Record<string, string> = {
  'nobody-on-call': 'nobody on call then',
  'may-not-see': 'may not see it',
  'no-session-owner': 'no session owner in a dry run',
  'unknown-target': 'unknown target',
};

function stepLine(s: PlannedStep, atMs: number): string[] {
  const when = `+${formatDuration(s.atMs - atMs)}`.padEnd(8);
  const who = s.notify.length ? s.notify.join(', ') : 'nobody: skipped at once';
  const lines = [`  step ${s.step + 1}  ${when} ${new Date(s.atMs).toISOString()}  ${s.targets.join(' ')} -> ${who}`];
  for (const k of s.skipped) lines.push(`           skipped ${k.identity ?? k.target}: ${REASONS[k.reason] ?? k.reason}`);
  return lines;
}

export function printPlan({ choice, plan, atMs, timeoutMs, json }: PrintInput): string {
  const expiresAtMs = atMs + timeoutMs;
  if (json) return terminalJson({ route: choice, atMs, expiresAtMs, steps: plan?.steps ?? [], unreached: plan?.unreached ?? [], exhausted: plan?.exhausted ?? null }) + '\n';
  if (!choice || !plan) return 'no route matches: the question goes to everyone who may see it, as without routing\n';
  const routes = choice.routes.map((i) => `routing.routes[${i}]`).join(', ');
  const lines = [
    `route: ${routes} -> escalation "${plan.escalation}"${plan.quorum !== undefined ? `, quorum ${plan.quorum}` : ''}`,
    `asked at ${new Date(atMs).toISOString()}, expires after ${formatDuration(timeoutMs)}`,
    ...plan.steps.flatMap((s) => stepLine(s, atMs)),
  ];
  if (plan.unreached.length) lines.push(`not reached before it expires (+${formatDuration(timeoutMs)}):`, ...plan.unreached.flatMap((s) => stepLine(s, atMs)));
  const end = plan.exhausted;
  lines.push(end.reached ? `then at +${formatDuration(end.atMs - atMs)} the steps run out: ${end.action}` : `then at +${formatDuration(timeoutMs)} it expires (the steps would run out at +${formatDuration(end.atMs - atMs)}: ${end.action})`);
  return terminalText(lines.join('\n')) + '\n';
}
