import type { Answers, QuestionRecord } from '../../protocol/index.ts';
import type { QuestionLike } from '../sessions/visibility.ts';
import type { StoredEvent, StoredQuestion } from '../store/types.ts';
import type { WaitedQuestion } from './question-waiters.ts';

/** A question as heard from its events: who may see it, its session, and its outcome once resolved. */
export type HeardQuestion = WaitedQuestion & QuestionLike & { sessionKey?: string; asksApproval?: true };

/**
 * G11: whether a question is an approval, from its record as read (its `approval`) or as heard (its question.requested
 * event's audience says so, the agent's own items or the gateway's approval item alike).
 */
export function isApproval(q: HeardQuestion | StoredQuestion): boolean {
  return 'questions' in q ? q.approval !== undefined : q.asksApproval === true;
}

/** How many questions a gateway keeps in mind (QuestionManager.questionsHeard). */
const QUESTIONS_HEARD_KEPT = 10_000;

/** What QuestionManager.questionsHeard keeps of a committed question event. */
export function noteQuestion(questionsHeard: Map<string, HeardQuestion>, ev: StoredEvent): void {
  if (ev.event === 'question.requested') {
    const q = (ev.payload as { question: QuestionRecord }).question;
    // What visibility (A3), a lane and a wait need of it, not its items.
    questionsHeard.set(q.id, {
      id: q.id,
      ...(q.sessionKey !== undefined ? { sessionKey: q.sessionKey } : {}),
      askedBy: q.askedBy,
      ...(q.privileged ? { privileged: true } : {}),
      ...(ev.audience.question?.approval || q.questions.some((i) => i.kind === 'approval') ? { asksApproval: true as const } : {}),
      status: q.status,
    });
    if (questionsHeard.size > QUESTIONS_HEARD_KEPT) questionsHeard.delete(questionsHeard.keys().next().value!);
  } else if (ev.event === 'question.resolved') {
    // Its outcome as a read would give it (bar the resolutionId, which the event does not tell).
    const { id, status, answers, reason, receipt } = ev.payload as { id: string; status: QuestionRecord['status']; answers?: Answers; reason?: string; receipt?: string };
    const q = questionsHeard.get(id);
    // L4: with its receipt, so a wait answered from what was heard carries it as a read would.
    if (q) questionsHeard.set(id, { ...q, status, ...(answers ? { answers } : {}), ...(reason !== undefined ? { reason } : {}), ...(receipt !== undefined ? { receipt } : {}) });
  }
}
