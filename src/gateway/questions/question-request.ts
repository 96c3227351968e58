import { AskdockError, clampTimeoutMs, invalidRequest, type Params, type Session } from '../../protocol/index.ts';
import type { Identity } from '../auth.ts';
import type { Core } from '../core.ts';
import { newId } from '../infra/ids.ts';
import { sameItems, storedItems } from './question-records.ts';
import { askSession, requireMayAsk } from '../runs/run-authority.ts';
import type { StoredApproval, StoredQuestion } from '../store/types.ts';

const where = 'question.request';

/**
 * Q2, Q3, Q11 checks for a new question and the record to store, or the existing record when the same asker
 * resends the same ask with the same id (clients resend after a reconnect).
 */
export async function newQuestion(
  core: Core,
  identity: Identity,
  clientId: string,
  p: Params<'question.request'>,
  approval?: StoredApproval,
): Promise<{ existing: StoredQuestion; record?: never } | ({ existing?: never; record: StoredQuestion } & SessionBefore)> {
  const { store, clock } = core;
  requireMayAsk(identity, where);
  // G11: only an approval comes without questions, and the policy room gives it the approval's question.
  if (p.questions === undefined) throw invalidRequest(where, [{ path: 'questions', problem: 'questions are required (unless approval is given)' }]);
  const items = storedItems(p.questions);
  const mode = p.mode ?? 'blocking';
  // Q3: async questions never expire unless a timeout is given.
  const timeoutMs = mode === 'async' && p.timeoutMs === undefined ? null : clampTimeoutMs(p.timeoutMs);
  if (p.id !== undefined) {
    const existing = await store.getQuestion(p.id);
    if (existing) {
      // The same content: what was asked, where, by which run, how privileged, and for how long (Q3's clamp).
      const same =
        existing.askedBy === identity.id &&
        existing.mode === mode &&
        existing.sessionKey === (p.sessionKey ?? existing.sessionKey) &&
        existing.runId === p.runId &&
        (existing.privileged === true) === (p.privileged === true) &&
        (existing.expiresAtMs === null ? null : existing.expiresAtMs - existing.createdAtMs) === timeoutMs &&
        sameItems(existing.questions, items);
      if (same) return { existing };
      throw new AskdockError('QUESTION_ID_IN_USE', `question id "${p.id}" is already used: leave id out or pick another`, {
        details: { id: p.id },
      });
    }
  }
  const sessionKey = await askSession(core, identity, where, p);
  // The reads at once (on a network database they leave in one round trip): the session, locked first as every change
  // in it does, and its pending questions (Q11, and on a shared database the audience of its session.updated), so
  // nothing needs reading after the insert.
  const [session, pending, askerPending] = await Promise.all([
    sessionKey !== undefined ? core.getSession(sessionKey) : undefined,
    sessionKey !== undefined && (mode === 'blocking' || store.shared) ? store.listQuestions({ sessionKey, status: 'pending' }) : undefined,
    core.store.countPendingAskedBy(identity.id),
  ]);
  const first = mode === 'blocking' ? pending?.find((q) => q.mode === 'blocking') : undefined;
  if (first)
    throw new AskdockError(
      'QUESTION_PENDING',
      `session "${sessionKey}" already has a pending blocking question "${first.id}": wait for it, or ask with mode "async"`,
      { details: { id: first.id } },
    );
  const now = core.stamps.questionCreated();
  await limitPending(core, identity, now, askerPending);
  const record: StoredQuestion = {
    id: p.id ?? newId('q'),
    ...(sessionKey !== undefined ? { sessionKey } : {}),
    ...(p.runId !== undefined ? { runId: p.runId } : {}),
    askedBy: identity.id,
    mode,
    ...(p.privileged ? { privileged: true } : {}),
    questions: items,
    createdAtMs: now,
    expiresAtMs: timeoutMs === null ? null : now + timeoutMs,
    status: 'pending',
    askerClientId: clientId,
    ...(approval ? { approval } : {}),
  };
  return { record, session, pending };
}

/** A session as read before a change in its unit, with its pending questions where they were read. */
export type SessionBefore = { session: Session | undefined; pending: StoredQuestion[] | undefined };

/**
 * At most `maxPendingQuestions` pending (not retired) questions per asker, so one agent cannot bury the dock or grow
 * the snapshot without bound. `retryAfterMs` is when its first pending question expires (a minute when none will).
 */
async function limitPending(core: Core, identity: Identity, now: number, pending: number): Promise<void> {
  const max = core.opts.maxPendingQuestions;
  if (pending < max) return;
  // Over the limit (rare): read the asker's pending questions for the count and the first expiry.
  const mine = (await core.store.listQuestions({ status: 'pending' })).filter((q) => q.askedBy === identity.id && q.retiredAtMs === undefined);
  if (mine.length < max) return;
  const expiries = mine.map((q) => q.expiresAtMs).filter((t): t is number => typeof t === 'number');
  const retryAfterMs = expiries.length > 0 ? Math.max(1000, Math.min(...expiries) - now) : 60_000;
  throw new AskdockError('RATE_LIMITED', `${identity.id} already has ${mine.length} pending questions (the limit is ${max}): wait for answers or cancel some`, {
    retryAfterMs,
    retryable: true,
    details: { pending: mine.length, limit: max },
  });
}
