/**
 * E1: the `routing` block of the gateway config, validated. Every fault is found and named by its path
 * (`routing.escalations.prod.steps[0].wait`) and the problem, so one start shows all of them.
 */
import { child, isRecord, members, names, optionalString, Problems, record } from './check.ts';
import { schedules as parseSchedules } from './config-schedules.ts';
import { parseDuration, formatDuration } from './duration.ts';
import type { ToolMatcher } from './tool-matcher.ts';
import {
  ACK_TIMEOUT_MS, ASK_KINDS, EXHAUSTED, REPEAT_MAX, WAIT_MAX_MS, WAIT_MIN_MS,
  type AskKind, type Escalation, type EscalationStep, type Route, type RouteMatch, type RoutingConfig, type RoutingProblem,
} from './types.ts';

export interface RoutingContext {
  /** The ids of the config's identities: every member and `identity:` target must be one of them. */
  identities: readonly string[];
  tools: ToolMatcher;
  /** Where the block sits, for paths; default `routing`. */
  where?: string;
}

export type RoutingResult = { ok: true; routing: RoutingConfig } | { ok: false; problems: RoutingProblem[] };

/** What a config without `routing` means: nothing is routed, everything works as before. */
export function emptyRouting(): RoutingConfig {
  return { groups: {}, schedules: {}, escalations: {}, routes: [] };
}

function waitOf(p: Problems, path: string, raw: unknown): number | undefined {
  const d = parseDuration(raw);
  if (!d.ok) p.add(path, d.problem);
  else if (d.ms < WAIT_MIN_MS || d.ms > WAIT_MAX_MS) p.add(path, `must be between 5s and 24h, got "${raw as string}" (${formatDuration(d.ms)})`);
  else return d.ms;
  return undefined;
}

/** A target is `identity:<id>`, `group:<name>`, `schedule:<name>` or `session-owner`, naming something that exists. */
function targetProblem(target: unknown, ids: ReadonlySet<string>, groups: object, schedules: object): string | null {
  if (target === 'session-owner') return null;
  const m = typeof target === 'string' ? /^(identity|group|schedule):(.+)$/.exec(target) : null;
  if (!m) return `must be "identity:<id>", "group:<name>", "schedule:<name>" or "session-owner", got ${JSON.stringify(target)}`;
  const [, kind, name] = m;
  if (kind === 'identity' && !ids.has(name)) return `unknown target: "${name}" is not the id of an identity in the config`;
  if (kind === 'group' && !Object.hasOwn(groups, name)) return `unknown target: no group "${name}" in routing.groups`;
  if (kind === 'schedule' && !Object.hasOwn(schedules, name)) return `unknown target: no schedule "${name}" in routing.schedules`;
  return null;
}

function escalation(p: Problems, path: string, name: string, raw: unknown, known: (t: unknown) => string | null, ackDefaultMs: number): Escalation | undefined {
  const e = record(p, path, raw, ['steps', 'repeat', 'exhausted', 'ackTimeout']);
  if (!e) return undefined;
  const steps: EscalationStep[] = [];
  if (!Array.isArray(e.steps) || e.steps.length === 0) p.add(child(path, 'steps'), 'must list at least one step ({notify, wait})');
  else e.steps.forEach((raw, i) => {
    const at = child(child(path, 'steps'), i);
    const s = record(p, at, raw, ['notify', 'wait']);
    if (!s) return;
    const notify = Array.isArray(s.notify) ? s.notify : [];
    if (notify.length === 0) p.add(child(at, 'notify'), 'must list at least one target');
    notify.forEach((t, j) => {
      const problem = known(t);
      if (problem) p.add(child(child(at, 'notify'), j), problem);
    });
    const waitMs = waitOf(p, child(at, 'wait'), s.wait);
    if (waitMs !== undefined) steps.push({ notify: notify as string[], waitMs });
  });
  const repeat = e.repeat ?? 0;
  if (!Number.isInteger(repeat) || (repeat as number) < 0 || (repeat as number) > REPEAT_MAX)
    p.add(child(path, 'repeat'), `must be a whole number 0..${REPEAT_MAX} (how many more times the steps run), got ${JSON.stringify(e.repeat)}`);
  if (e.exhausted !== undefined && !(EXHAUSTED as readonly unknown[]).includes(e.exhausted))
    p.add(child(path, 'exhausted'), e.exhausted === 'allow'
      ? 'may not be "allow": nothing is ever allowed because nobody answered (use "deny", "expire" or "keep")'
      : `must be "deny", "expire" or "keep", got ${JSON.stringify(e.exhausted)}`);
  const ackTimeoutMs = e.ackTimeout === undefined ? ackDefaultMs : waitOf(p, child(path, 'ackTimeout'), e.ackTimeout);
  if (ackTimeoutMs === undefined) return undefined;
  return { name, steps, repeat: repeat as number, ackTimeoutMs, ...(e.exhausted !== undefined ? { exhausted: e.exhausted as Escalation['exhausted'] } : {}) };
}

const SOURCE = /^(hook:.+|mcp-proxy:.+|sdk|mcp|cli|\*)$/;

function routeMatch(p: Problems, path: string, raw: unknown, tools: ToolMatcher): RouteMatch | undefined {
  if (raw === undefined) return {};
  const m = record(p, path, raw, ['kind', 'agent', 'source', 'session', 'tool']);
  if (!m) return undefined;
  const out: RouteMatch = {};
  if (m.kind !== undefined) {
    const kinds = Array.isArray(m.kind) ? m.kind : [m.kind];
    const bad = kinds.filter((k) => !(ASK_KINDS as readonly unknown[]).includes(k));
    if (bad.length || kinds.length === 0) p.add(child(path, 'kind'), `must be one of ${ASK_KINDS.join(', ')} (or a list of them), got ${JSON.stringify(m.kind)}`);
    else out.kind = kinds as AskKind[];
  }
  for (const key of ['agent', 'session'] as const) {
    const v = optionalString(p, child(path, key), m[key]);
    if (v !== undefined) out[key] = v;
  }
  const source = optionalString(p, child(path, 'source'), m.source);
  if (source !== undefined && !SOURCE.test(source))
    p.add(child(path, 'source'), `must be hook:<agent>, mcp-proxy:<server>, sdk, mcp or cli (globs allowed), got "${source}"`);
  else if (source !== undefined) out.source = source;
  const tool = optionalString(p, child(path, 'tool'), m.tool);
  const toolProblem = tool === undefined ? null : tools.check(tool);
  if (toolProblem) p.add(child(path, 'tool'), toolProblem);
  else if (tool !== undefined) out.tool = tool;
  if (tool !== undefined && out.kind && !out.kind.includes('approval')) p.add(child(path, 'tool'), 'a tool rule matches approvals only, and this route\'s kind leaves them out');
  return out;
}

function routes(p: Problems, path: string, raw: unknown, tools: ToolMatcher, escalations: object): Route[] {
  if (raw === undefined) return [];
  if (!Array.isArray(raw)) {
    p.add(path, 'must be a list of routes ({match, escalation})');
    return [];
  }
  const out: Route[] = [];
  raw.forEach((value, index) => {
    const at = child(path, index);
    const r = record(p, at, value, ['match', 'escalation', 'quorum', 'continue']);
    if (!r) return;
    const match = routeMatch(p, child(at, 'match'), r.match, tools);
    const cont = r.continue ?? false;
    if (typeof cont !== 'boolean') p.add(child(at, 'continue'), 'must be true or false');
    if (r.escalation === undefined && cont !== true) p.add(child(at, 'escalation'), 'a route names an escalation (only a route with "continue": true may leave it out)');
    else if (r.escalation !== undefined && (typeof r.escalation !== 'string' || !Object.hasOwn(escalations, r.escalation)))
      p.add(child(at, 'escalation'), `unknown escalation ${JSON.stringify(r.escalation)}: not in routing.escalations`);
    if (r.quorum !== undefined && (!Number.isInteger(r.quorum) || (r.quorum as number) < 1))
      p.add(child(at, 'quorum'), `must be a whole number of approvers, 1 or more, got ${JSON.stringify(r.quorum)}`);
    else if (r.quorum !== undefined && match?.kind && !match.kind.includes('approval'))
      p.add(child(at, 'quorum'), 'a quorum counts approvals, and this route\'s kind never matches an approval');
    if (!match) return;
    out.push({ index, match, continue: cont === true, ...(typeof r.escalation === 'string' ? { escalation: r.escalation } : {}), ...(typeof r.quorum === 'number' ? { quorum: r.quorum } : {}) });
  });
  return out;
}

/** Validates the `routing` block (undefined: nothing is routed). */
export function parseRouting(raw: unknown, ctx: RoutingContext): RoutingResult {
  const where = ctx.where ?? 'routing';
  if (raw === undefined) return { ok: true, routing: emptyRouting() };
  const p = new Problems();
  const top = record(p, where, raw, ['groups', 'schedules', 'escalations', 'routes', 'ackTimeout']);
  if (!top) return { ok: false, problems: p.list };
  const ids = new Set(ctx.identities);
  const groups: RoutingConfig['groups'] = {};
  for (const [name, value] of names(p, child(where, 'groups'), top.groups)) {
    const g = record(p, child(child(where, 'groups'), name), value, ['members']);
    if (g) groups[name] = { members: members(p, child(child(child(where, 'groups'), name), 'members'), g.members, ids) };
  }
  const schedules = parseSchedules(p, child(where, 'schedules'), top.schedules, ids);
  // Targets are checked against the names as written, so a group with a fault of its own is not also "unknown".
  const written = (v: unknown) => (isRecord(v) ? v : {});
  const known = (t: unknown) => targetProblem(t, ids, written(top.groups), written(top.schedules));
  // E4: `ackTimeout` (30m unless given) for every escalation, or on one escalation for its own.
  const ackDefaultMs = top.ackTimeout === undefined ? ACK_TIMEOUT_MS : (waitOf(p, child(where, 'ackTimeout'), top.ackTimeout) ?? ACK_TIMEOUT_MS);
  const escalations: RoutingConfig['escalations'] = {};
  for (const [name, value] of names(p, child(where, 'escalations'), top.escalations)) {
    const e = escalation(p, child(child(where, 'escalations'), name), name, value, known, ackDefaultMs);
    if (e) escalations[name] = e;
  }
  const rs = routes(p, child(where, 'routes'), top.routes, ctx.tools, written(top.escalations));
  if (p.list.length) return { ok: false, problems: p.list };
  return { ok: true, routing: { groups, schedules, escalations, routes: rs } };
}

/** One line per problem, as a start failure prints them. */
export function formatProblems(problems: readonly RoutingProblem[]): string {
  return problems.map((x) => `${x.path}: ${x.problem}`).join('\n');
}
