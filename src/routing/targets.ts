/** E1/E3: the people a step's targets reach at an instant; a target that reaches nobody, or someone who may not see the question, is skipped and said so. */
import { onCallAt } from './schedule.ts';
import type { RoutingConfig, Target } from './types.ts';

export interface TargetContext {
  routing: RoutingConfig;
  /** The operator who owns the question's session (A6), for `session-owner`. */
  sessionOwner?: string;
  /** A3: whether the identity may see the question. Routing never widens who sees it: anyone else is skipped. */
  maySee?: (identity: string) => boolean;
  /** The config's identity ids: an `identity:` target outside them (a hand-off typed by a person) is unknown. */
  identities?: readonly string[];
}

export type SkipReason = 'nobody-on-call' | 'may-not-see' | 'no-session-owner' | 'unknown-target';
export interface Skip { target: Target; reason: SkipReason; identity?: string }
export interface Reached { identities: string[]; skipped: Skip[] }

function membersOf(target: Target, atMs: number, ctx: TargetContext): string[] | SkipReason {
  if (target === 'session-owner') return ctx.sessionOwner ? [ctx.sessionOwner] : 'no-session-owner';
  const colon = target.indexOf(':');
  const kind = target.slice(0, colon);
  const name = target.slice(colon + 1);
  if (kind === 'identity') return !ctx.identities || ctx.identities.includes(name) ? [name] : 'unknown-target';
  if (kind === 'group' && Object.hasOwn(ctx.routing.groups, name)) return ctx.routing.groups[name].members;
  if (kind === 'schedule' && Object.hasOwn(ctx.routing.schedules, name)) {
    const who = onCallAt(ctx.routing.schedules[name], atMs);
    return who ? [who.identity] : 'nobody-on-call';
  }
  return 'unknown-target';
}

/** Distinct identities, in the order the targets name them. */
export function reach(targets: readonly Target[], atMs: number, ctx: TargetContext): Reached {
  const identities: string[] = [];
  const skipped: Skip[] = [];
  for (const target of targets) {
    const members = membersOf(target, atMs, ctx);
    if (typeof members === 'string') {
      skipped.push({ target, reason: members });
      continue;
    }
    for (const identity of members) {
      if (ctx.maySee && !ctx.maySee(identity)) skipped.push({ target, reason: 'may-not-see', identity });
      else if (!identities.includes(identity)) identities.push(identity);
    }
  }
  return { identities, skipped };
}
