import { AskdockError, METHOD_NAMES, invalidRequest, type MethodName } from '../../protocol/index.ts';
import { deniesAskUser, type Identity } from '../auth.ts';
import type { RoomParts } from '../sessions/room-parts.ts';
import type { Tx } from '../hub/hub.ts';
import type { RunRow } from '../store/types.ts';

/** RU1: the methods a denied identity loses; hello-ok leaves them out of features.methods. */
const ASKING_METHODS: ReadonlySet<MethodName> = new Set(['question.request', 'secret.request']);

export function methodsFor(identity: Identity): MethodName[] {
  return deniesAskUser(identity) ? METHOD_NAMES.filter((m) => !ASKING_METHODS.has(m)) : [...METHOD_NAMES];
}

/** RU1: only a primary run of an identity allowed the tool may ask (a question or a secret). */
export function requireMayAsk(identity: Identity, method: MethodName): void {
  if (deniesAskUser(identity))
    throw new AskdockError('FORBIDDEN', `${method}: identity "${identity.id}" may not ask: its config denies ask_user`, {
      details: { method, reason: 'denied' },
    });
}

export function requirePrimaryRun(run: RunRow, method: MethodName): void {
  if (run.parentRunId !== undefined)
    throw new AskdockError(
      'FORBIDDEN',
      `${method}: run "${run.runId}" is a subagent run (parent "${run.parentRunId}"); only the primary run may ask`,
      { details: { method, reason: 'non-primary-run', runId: run.runId, parentRunId: run.parentRunId } },
    );
}

/**
 * The session a new ask (a question or a secret request) belongs to: the one it names, else its run's. A run must be the
 * asker's own, primary (RU1) and open, and a session named beside it the run's; the asker must be able to read the session.
 */
export async function askSession(parts: Pick<RoomParts, 'store' | 'access'>, identity: Identity, method: MethodName, p: { sessionKey?: string; runId?: string }): Promise<string | undefined> {
  let sessionKey = p.sessionKey;
  if (p.runId !== undefined) {
    const run = await parts.store.getRun(p.runId);
    if (!run || run.agentId !== identity.id)
      throw invalidRequest(method, [{ path: 'runId', problem: `no run "${p.runId}" of this agent: open one with run.start` }]);
    requirePrimaryRun(run, method);
    if (run.endedAtMs !== undefined) throw invalidRequest(method, [{ path: 'runId', problem: `run "${p.runId}" has ended (${run.stopReason})` }]);
    if (sessionKey === undefined) sessionKey = run.sessionKey ?? undefined;
    else if (run.sessionKey !== null && run.sessionKey !== sessionKey)
      throw invalidRequest(method, [{ path: 'sessionKey', problem: `differs from the session "${run.sessionKey}" of run "${p.runId}"` }]);
  }
  if (sessionKey !== undefined) (await parts.access.readableSession(identity, sessionKey));
  return sessionKey;
}

/** RU2: an aborted run, or one superseded by an unrelated user message after its question, appends nothing more. */
export function requireCurrentRun(run: RunRow): void {
  const aborted = run.stopReason === 'aborted';
  if (!aborted && run.supersededAtMs === undefined) return;
  const why = aborted
    ? 'it was aborted'
    : 'a user message that is not the answer to its question arrived in the session after it asked';
  throw new AskdockError('RUN_SUPERSEDED', `run "${run.runId}" may not append: ${why}; end it and let the newer turn reply`, {
    details: { runId: run.runId, reason: aborted ? 'aborted' : 'new-user-message' },
  });
}

/**
 * RU2, inside the transaction that saves a user message: every open run of the session that asked a blocking
 * question (before this message) is superseded unless the message is that question's reply.
 */
export async function supersedeRuns(parts: Pick<RoomParts, 'store' | 'clock'>, _tx: Tx, sessionKey: string, replyToQuestionId: string | undefined): Promise<void> {
  const runs = (await parts.store.activeRuns(sessionKey)).filter((r) => r.supersededAtMs === undefined);
  if (runs.length === 0) return;
  const asked = (await parts.store.listQuestions({ sessionKey })).filter((q) => q.mode === 'blocking' && q.runId !== undefined);
  if (asked.length === 0) return;
  const now = parts.clock.now();
  for (const run of runs) {
    const own = asked.filter((q) => q.runId === run.runId);
    if (own.length === 0 || own.some((q) => q.id === replyToQuestionId)) continue;
    await parts.store.updateRun({ ...run, supersededAtMs: now });
  }
}
