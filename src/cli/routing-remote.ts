/** E10: `askdock routing test` without --config: the running gateway's routing answers (routing.test, E12). */
import type { Result } from '../protocol/index.ts';
import type { AskFacts, DryRun, Exhausted, SkipReason } from '../routing/index.ts';
import { terminalJson } from '../lib/terminal-text.ts';
import { EXIT } from './args.ts';
import { withGateway } from './policy-client.ts';
import { printDryRun } from './routing-print.ts';

type RemoteArgs = { facts: AskFacts; atMs: number; timeoutMs: number; json: boolean; url?: string; token?: string; toolRule?: string };
type Answer = Result<'routing.test'>;

/** The gateway's answer as the dry run prints it (a gateway that leaves out the additive fields prints what it gave). */
function asDryRun(r: Answer, args: RemoteArgs): DryRun {
  const step = (s: Answer['steps'][number]) => ({
    step: s.step,
    index: s.index ?? s.step,
    round: s.round ?? 0,
    atMs: s.atMs,
    targets: s.targets ?? [],
    notify: s.notify,
    ...(s.alreadyNotified?.length ? { alreadyNotified: s.alreadyNotified } : {}),
    skipped: (s.skipped ?? []).map((k) => ({ ...k, reason: k.reason as SkipReason })),
  });
  const atMs = r.atMs ?? args.atMs;
  const expiresAtMs = r.expiresAtMs ?? atMs + args.timeoutMs;
  const steps = r.steps.map(step);
  // A gateway without the additive `exhausted` gets E2's default for the kind.
  const fallback = { action: (args.facts.kind === 'approval' ? 'deny' : 'expire') as Exhausted, atMs: expiresAtMs, reached: false };
  const exhausted = r.exhausted ? { ...r.exhausted, action: r.exhausted.action as Exhausted } : r.route ? fallback : null;
  return { route: r.route, atMs, expiresAtMs, steps, unreached: r.unreached.map(step), exhausted };
}

export function testOnGateway(args: RemoteArgs, usage: string): Promise<number> {
  const { kind, agent, source, session } = args.facts;
  const params = {
    kind,
    ...(agent !== undefined ? { agent } : {}),
    ...(source !== undefined ? { source } : {}),
    ...(session !== undefined ? { session } : {}),
    ...(args.toolRule !== undefined ? { tool: args.toolRule } : {}),
    at: new Date(args.atMs).toISOString(),
    timeoutMs: args.timeoutMs,
  };
  return withGateway('routing test', usage, { url: args.url, token: args.token }, 'operator', async (client) => {
    const r = await client.client.request('routing.test', params);
    process.stdout.write(args.json ? terminalJson(r) + '\n' : printDryRun(asDryRun(r, args)));
    return EXIT.answered;
  });
}
