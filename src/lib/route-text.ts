import type { GrantScope } from '../protocol/policy.ts';
import type { QuorumState, RouteState } from '../protocol/routing.ts';
import { mayAnswer } from './may-answer.ts';

/** "4:12", "1:02:03": the time until a route's next step. */
export function formatCountdown(msLeft: number): string {
  const total = Math.max(0, Math.ceil(msLeft / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

/** E9: who the question waits for: the people notified so far, by display name where the route carries one, else by id. */
export function waitsForText(route: RouteState): string {
  const name = (id: string) => (route.names && Object.hasOwn(route.names, id) ? route.names[id] : id);
  return route.notified.length > 0 ? route.notified.map(name).join(', ') : 'nobody yet';
}

/** E4: "Ana is on it" (the display name, else the id) while an acknowledgement holds. */
export function ackText(route: RouteState, nowMs: number): string | null {
  const ack = route.ackedBy;
  return ack && ack.untilMs > nowMs ? `${ack.name ?? ack.identity} is on it` : null;
}

/** E5: the "Always allow…" a held approval chose, in the quorum's line. */
const ALWAYS: Record<GrantScope, string> = { session: 'always in this session', project: 'always in this project', agent: 'always for this agent', everyone: 'always for everyone' };

/** E5: "1 of 2 approvals (Ana)": each person once, by display name, with the grant their approval holds ("Ana: always in this project"). */
export function quorumText(route: Pick<RouteState, 'quorum'>): string | null {
  const q = route.quorum;
  if (!q) return null;
  const who = new Map(q.approvals.map((a) => [a.identity, `${a.name ?? a.identity}${a.grant ? `: ${ALWAYS[a.grant.scope]}` : ''}`]));
  return `${who.size} of ${q.needed} approvals${who.size > 0 ? ` (${[...who.values()].join(', ')})` : ''}`;
}

/**
 * E5: what the person whose Allow was held is told (the question stays open for the next approver): "Approval counted:
 * 1 of 2 approvals (Ana). Waiting for 1 more person."; `again` when their Allow was already counted (it counts once).
 */
export function heldVoteText(quorum: QuorumState, again: boolean): string {
  const head = again ? 'Your approval was already counted' : 'Approval counted';
  return `${head}: ${quorumText({ quorum }) ?? ''}. ${stillNeeded(quorum)}`;
}

/** E5: "Your approval is counted. Waiting for 1 more person." while `identity`'s Allow is held (it counts once); else null. */
export function ownApprovalText(route: Pick<RouteState, 'quorum'>, identity: string | undefined): string | null {
  const q = route.quorum;
  return q && q.approvals.some((a) => a.identity === identity) ? `Your approval is counted. ${stillNeeded(q)}` : null;
}

function stillNeeded(quorum: QuorumState): string {
  const left = Math.max(0, quorum.needed - new Set(quorum.approvals.map((a) => a.identity)).size);
  return `Waiting for ${left} more ${left === 1 ? 'person' : 'people'}.`;
}

// E3: a module of its own, so the dock's first load takes it without this file's words (the rest loads lazily).
export { mayAnswer } from './may-answer.ts';

/** E3: the refusal of an answer from someone the question does not wait for, in words. */
export function forbiddenText(eligible: string[] | undefined): string | null {
  return eligible && eligible.length > 0 ? `Waiting for ${eligible.join(', ')}` : null;
}

/**
 * E6: the drafts of the latest hand-off that reached `identity` (one of its targets, who may answer), with its time as
 * its key: a surface adopts them once per hand-off, so they do not come back over what the person did since.
 */
export function handedOffDrafts(route: RouteState | undefined, identity: string | undefined): { atMs: number; drafts: Record<string, string[]> } | null {
  if (!route || identity === undefined || !mayAnswer(route, identity, false)) return null;
  const last = [...(route.handoffs ?? [])].reverse().find((h) => h.drafts && Object.keys(h.drafts).length > 0);
  return last?.drafts && last.from !== identity && last.reached?.includes(identity) ? { atMs: last.atMs, drafts: last.drafts } : null;
}
