import { AskdockError, methods, type MethodName, type Scope, type Session } from '../../protocol/index.ts';
import type { Identity } from '../auth.ts';
import type { EventAudience } from '../store/types.ts';
import type { Viewer } from '../hub/hub.ts';

/**
 * A3/A4/A5 in one place: method results, event fan-out and resume replay all ask these functions,
 * so what an identity may see is decided once.
 */

export function hasAnyScope(identity: Identity, scopes: readonly Scope[]): boolean {
  return scopes.some((s) => identity.scopes.has(s));
}

/** A5: a missing scope answers FORBIDDEN naming the scopes that would allow the call. */
export function requireMethodScope(identity: Identity, method: MethodName): void {
  const needed = methods[method].scopes;
  if (hasAnyScope(identity, needed)) return;
  const held = [...identity.scopes].join(', ') || 'none';
  throw new AskdockError('FORBIDDEN', `${method} needs scope ${needed.join(' or ')}; identity "${identity.id}" has ${held}`, {
    details: { method, needed },
  });
}

export function forbidden(what: string, needed: readonly Scope[], identity: Identity): AskdockError {
  return new AskdockError('FORBIDDEN', `${what} needs scope ${needed.join(' or ')}; identity "${identity.id}" lacks it`, {
    details: { needed },
  });
}

/** operator.admin, operator.read and operator.write read every session (A2). */
export function readsEverySession(identity: Identity): boolean {
  return hasAnyScope(identity, ['operator.admin', 'operator.read', 'operator.write']);
}

/** operator.admin and operator.questions see and answer every question (A2, A3). */
export function seesEveryQuestion(identity: Identity): boolean {
  return hasAnyScope(identity, ['operator.admin', 'operator.questions']);
}

const isGuestOwner = (identity: Identity, owner: string | undefined) =>
  identity.scopes.has('operator.sessions.write') && owner !== undefined && owner === identity.id;

/** Who created a session and the agent it is bound to (A6); `agentId` already resolved for unbound old sessions. */
export type SessionLike = { createdBy: string; agentId: string | null };

/** A6: an agent identity works in the sessions bound to it, and nowhere else. */
export function isBoundAgent(identity: Identity, session: SessionLike): boolean {
  return identity.scopes.has('agent.run') && session.agentId === identity.id;
}

/** A2/A6: readers of every session, a guest in the sessions it created, an agent in the sessions bound to it. */
export function canReadSession(identity: Identity, session: SessionLike): boolean {
  return readsEverySession(identity) || isBoundAgent(identity, session) || isGuestOwner(identity, session.createdBy);
}

export function canWriteSession(identity: Identity, session: SessionLike): boolean {
  return hasAnyScope(identity, ['operator.admin', 'operator.write']) || isGuestOwner(identity, session.createdBy);
}

/** C1 `sessions.update`: its creator or operator.admin. */
export function canRenameSession(identity: Identity, session: SessionLike): boolean {
  return identity.scopes.has('operator.admin') || session.createdBy === identity.id;
}

export type QuestionLike = { sessionKey?: string | null; askedBy: string; privileged?: boolean };

/** A3 for answering: admin/questions everywhere; a guest only in its own session and never privileged or sessionless ones. */
export function canAnswerQuestion(identity: Identity, q: QuestionLike, sessionOwner: string | undefined): boolean {
  if (seesEveryQuestion(identity)) return true;
  return !!q.sessionKey && !q.privileged && isGuestOwner(identity, sessionOwner);
}

/** A3: answerers see it, and the agent that asked it. Session access alone (read/write) shows no questions. */
export function canSeeQuestion(identity: Identity, q: QuestionLike, sessionOwner: string | undefined): boolean {
  return q.askedBy === identity.id || canAnswerQuestion(identity, q, sessionOwner);
}

/**
 * Whether what this identity sees of an event follows from the identity alone, the same for each of its connections:
 * true unless it may be a bound agent, whose view also depends on the sessions its connection subscribed to (C6).
 */
export function viewDependsOnIdentityOnly(identity: Identity): boolean {
  return !identity.scopes.has('agent.run');
}

export type { Viewer };
/** A session's creator and bound agent, or undefined when there is no such session. */
export type AccessLookup = (sessionKey: string) => SessionLike | undefined;

/**
 * A4 for events (live and replayed): question events follow A3; session events (chat, runs, session.updated)
 * reach session readers, a guest in its own session, and an agent subscribed to a session bound to it (A6).
 * Sessionless session events (a run without a session) reach only readers of every session. An event marked
 * `questionViewersOnly` (a privileged reply, a question's count) also needs that question's A3.
 */
export function canSeeEvent(viewer: Viewer, audience: EventAudience, accessOf: AccessLookup): boolean {
  const { identity } = viewer;
  if (audience.onlyIdentity !== undefined && audience.onlyIdentity !== identity.id) return false;
  if (audience.onlyScope !== undefined && !identity.scopes.has(audience.onlyScope)) return false;
  const session = audience.sessionKey === null ? undefined : accessOf(audience.sessionKey);
  const also = audience.questionViewersOnly;
  if (also && !canSeeQuestion(identity, { sessionKey: audience.sessionKey, ...also }, session?.createdBy)) return false;
  if (audience.question) {
    const q = { sessionKey: audience.sessionKey, askedBy: audience.question.askedBy, privileged: audience.question.privileged };
    return canSeeQuestion(identity, q, session?.createdBy);
  }
  if (readsEverySession(identity)) return true;
  if (!session) return false;
  if (isGuestOwner(identity, session.createdBy)) return true;
  return isBoundAgent(identity, session) && viewer.subscribed(audience.sessionKey);
}

/**
 * A session as this identity sees it: `pendingQuestions` counts only the questions it may see,
 * so a session reader learns nothing about questions hidden from it.
 */
export function sessionFor(identity: Identity, session: Session, countVisiblePending: () => number): Session {
  if (seesEveryQuestion(identity)) return session;
  return { ...session, pendingQuestions: countsSomeQuestions(identity) ? countVisiblePending() : 0 };
}

/** Whether some question of a session may count for this identity: an answerer's, a guest's in its own, an agent's own (A3). */
export function countsSomeQuestions(identity: Identity): boolean {
  return hasAnyScope(identity, ['operator.admin', 'operator.questions', 'operator.sessions.write', 'agent.run']);
}
