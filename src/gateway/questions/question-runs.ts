import type { Phase } from '../../protocol/index.ts';
import type { Core } from '../core.ts';
import type { Tx } from '../hub/hub.ts';
import type { RunRow, Store, StoredQuestion } from '../store/types.ts';

/**
 * Q10: does run `ended` retire the pending async question `q`? Only a run that ends `end_turn` outside the
 * commentary phase, and that started after the asking run ended (or, without a runId, that a later user message started).
 * A `recovery` run (the agent back after a restart) also retires reminders of an asking run that never ended, since that
 * run died with the agent, when it started after it. Times compare strictly, so a tie never retires a reminder early.
 */
export async function retires(store: Store, q: StoredQuestion, ended: RunRow, phase: Phase | undefined): Promise<boolean> {
  if (ended.stopReason !== 'end_turn' || phase === 'commentary') return false;
  if ((q.sessionKey ?? null) !== ended.sessionKey) return false;
  // Sessionless reminders belong to their agent alone.
  if (ended.sessionKey === null && q.askedBy !== ended.agentId) return false;
  const asking = q.runId !== undefined ? (await store.getRun(q.runId)) : undefined;
  if (asking) {
    if (asking.runId === ended.runId) return false;
    if (asking.endedAtMs === undefined) return ended.recovery && ended.startedAtMs > asking.startedAtMs;
    return ended.startedAtMs > asking.endedAtMs;
  }
  if (ended.triggerMessageId === undefined) return false;
  const trigger = await store.getMessage(ended.triggerMessageId);
  return !!trigger && trigger.role === 'user' && trigger.createdAtMs > q.createdAtMs;
}

/**
 * A reminder already retired retires anew (a newer `retiredAtMs`) only for a run that started after that retirement:
 * where a person put it back in the dock (U8: Answer, a discarded answer), the conversation moving on retires it again.
 */
const retiresAgain = (q: StoredQuestion, ended: RunRow) => q.retiredAtMs === undefined || ended.startedAtMs > q.retiredAtMs;

/** Q7 and Q10 when a run ends, inside the transaction that ends it. */
export async function onRunEnded(core: Core, tx: Tx, ended: RunRow, phase: Phase | undefined): Promise<void> {
  // A sessionless run may ask in a session, so its questions are looked up across sessions.
  const pending = await core.store.listQuestions({ status: 'pending' });
  for (const listed of pending) {
    if (!(listed.mode === 'blocking' ? listed.runId === ended.runId : listed.mode === 'async' && (listed.sessionKey ?? null) === ended.sessionKey)) continue;
    // Read again inside the transaction (on a shared database that locks it): another gateway may have answered it since (D2).
    const q = await core.store.getQuestion(listed.id);
    if (!q || q.status !== 'pending') continue;
    if (q.mode === 'blocking' && q.runId === ended.runId) {
      await core.questions.finishIn(tx, q, { status: 'cancelled', reason: 'run-ended' });
    } else if (q.mode === 'async' && (await retires(core.store, q, ended, phase)) && retiresAgain(q, ended)) {
      await core.questions.retireIn(tx, q);
    }
  }
}
