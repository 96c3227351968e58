/** E10: what `askdock routing test` prints: the route, each step's time and people, the steps past the timeout, the end. */
import { formatDuration, type DryRun, type PlannedStep } from '../routing/index.ts';
import { terminalText } from '../lib/terminal-text.ts';

const REASONS: Record<string, string> = {
  'nobody-on-call': 'nobody on call then',
  'may-not-see': 'may not see it',
  'no-session-owner': 'no session owner in a dry run',
  'unknown-target': 'unknown target',
};

/**
 * A step's people as the gateway will treat them: one its round notified at an earlier step is named with that step
 * (E2: notified once a round); a step that reaches nobody is passed over at once.
 */
function whoOf(s: PlannedStep, all: readonly PlannedStep[]): string {
  if (!s.notify.length) return 'nobody: skipped at once';
  const earlier = (i: string) => all.find((p) => p.round === s.round && p.step < s.step && p.notify.includes(i));
  return s.notify.map((i) => {
    const at = s.alreadyNotified?.includes(i) ? earlier(i) : undefined;
    return at ? `${i} (notified at step ${at.step + 1})` : i;
  }).join(', ');
}

function stepLine(s: PlannedStep, atMs: number, all: readonly PlannedStep[]): string[] {
  const when = `+${formatDuration(s.atMs - atMs)}`.padEnd(8);
  const who = whoOf(s, all);
  const lines = [`  step ${s.step + 1}  ${when} ${new Date(s.atMs).toISOString()}  ${s.targets.join(' ')} -> ${who}`];
  for (const k of s.skipped) lines.push(`           skipped ${k.identity ?? k.target}: ${REASONS[k.reason] ?? k.reason}`);
  return lines;
}

export function printDryRun({ route, atMs, expiresAtMs, steps, unreached, exhausted }: DryRun): string {
  if (!route || !exhausted) return 'no route matches: the question goes to everyone who may see it, as without routing\n';
  const timeoutMs = expiresAtMs - atMs;
  const all = [...steps, ...unreached];
  const line = (s: PlannedStep) => stepLine(s, atMs, all);
  const routes = route.routes.map((i) => `routing.routes[${i}]`).join(', ');
  const lines = [
    `route: ${routes} -> escalation "${route.escalation}"${route.quorum !== undefined ? `, quorum ${route.quorum}` : ''}`,
    `asked at ${new Date(atMs).toISOString()}, expires after ${formatDuration(timeoutMs)}`,
    ...steps.flatMap(line),
  ];
  if (unreached.length) lines.push(`not reached before it expires (+${formatDuration(timeoutMs)}):`, ...unreached.flatMap(line));
  lines.push(exhausted.reached
    ? `then at +${formatDuration(exhausted.atMs - atMs)} the steps run out: ${exhausted.action}`
    : `then at +${formatDuration(timeoutMs)} it expires (the steps would run out at +${formatDuration(exhausted.atMs - atMs)}: ${exhausted.action})`);
  return terminalText(lines.join('\n')) + '\n';
}
