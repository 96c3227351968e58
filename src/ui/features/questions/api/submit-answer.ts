/**
 * The one way an answer leaves this browser, for the dock and the link page alike. Every hop, from a key press to
 * the agent's `askUser` result:
 *
 *  1. A key (through the command registry, commands.ts) or a click submits the form: `form.requestSubmit()`.
 *  2. The form's submit (use-answer-form.ts) collects the draft into answers (src/answers/collect.ts) or names
 *     what is missing, and calls `answer()` here.
 *  3. `answerRoute` picks the road. A blocking question, a sessionless one, or any on the link page:
 *     `question.resolve {id, answers, resolutionId, surface}` through the gateway client (src/client), with the
 *     draft's one resolution id (stores/drafts.ts `resolutionIdOf`, kept by `submitStarted`), so a retry or a
 *     re-send after a reconnect is the same resolve (Q5, P7). An async question of a session in the dock: a chat message in the Q9 form
 *     (src/answers/async-reply.ts) queued in the outbox (lib/outbox), which sends it by `chat.send` with
 *     `replyTo: {questionId, answers}` and one idempotency key until saved history confirms it (U9).
 *  4. The gateway checks the answers (Q5, or Q9 for a reply), stores them and wakes the asker's
 *     `question.waitAnswer`: the SDK's `askUser` (src/agent/sdk.ts) returns `{status:'answered', answers}` (T2).
 *  5. Back here: the resolve's result patches the questions cache (api/get-questions.ts) and drops the draft;
 *     `question.resolved` reaches every tab the same way (api/questions-sync.ts). A refusal because the record
 *     ended elsewhere drops the draft and applies the outcome the error carries.
 */
import { useState } from 'react';
import { useIsMutating, useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { GatewayClient } from '../../../../client/client.ts';
import { requestUntilAnswered } from '../../../../client/resend.ts';
import type { Answers, ErrorDetails, QuestionRecord, Result } from '../../../../protocol/index.ts';
import type { GrantScope } from '../../../../protocol/policy.ts';
import { formatAsyncAnswerText } from '../../../../answers/async-reply.ts';
import { grantRequestOf } from '../../../../answers/kinds/approval-offers.ts';
import { errorCode, errorMessage } from '../../../lib/error-message.ts';
import type { EnqueueInput, Outbox } from '../../../lib/outbox/outbox.ts';
import { useOutbox } from '../../../lib/outbox/use-outbox.ts';
import { useGateway } from '../../../lib/gateway.tsx';
import { useMaySendMessages } from '../../../lib/use-scopes.ts';
import { retryingImport } from '../../../lib/retrying-import.ts';
import { forbiddenText, heldVoteText } from '../../../../lib/route-text.ts';
import { draftActions, resolutionIdOf } from '../stores/drafts.ts';
import { skipActions } from '../stores/skips.ts';
import { questionResolved, questionsKey, voteHeld } from './get-questions.ts';

/** Q1: where an answer came from. */
export type AnswerSurface = 'control-ui' | 'link';

/** `grant`: G12, an approval answered with an "Always allow…" offer asks for a grant of that scope. */
export type Resolution = { kind: 'answer'; answers: Answers; grant?: { scope: GrantScope } } | { kind: 'skip' };
type Variables = { record: QuestionRecord } & Resolution;

/** Every submit shares this key prefix, so one record reads busy whichever road its answer took. */
export const submitKey = ['questions', 'submit'] as const;

/**
 * An async question of a session answers in its conversation (Q9, U9); a link page has no delivery line to show, so it
 * resolves, as does a sign-in that may not send messages (`maySend` false: chat.send would refuse it, A5).
 */
export function answerRoute(record: QuestionRecord, surface: AnswerSurface, maySend = true): 'outbox' | 'resolve' {
  return maySend && surface === 'control-ui' && record.mode === 'async' && record.sessionKey !== undefined ? 'outbox' : 'resolve';
}

/** The outbox row for an async answer: the Q9 text, and the structured answers for `replyTo.answers`. */
export function asyncAnswerInput(record: QuestionRecord & { sessionKey: string }, answers: Answers): EnqueueInput {
  return { sessionKey: record.sessionKey, questionId: record.id, text: formatAsyncAnswerText(record.questions, answers), answers };
}

export async function queueAsyncAnswer(outbox: Outbox, record: QuestionRecord, answers: Answers) {
  if (record.sessionKey === undefined) throw new Error(`question ${record.id} has no session to reply in: resolve it instead`);
  draftActions().asyncAnswerQueued(record.id, answers);
  return outbox.enqueue(asyncAnswerInput({ ...record, sessionKey: record.sessionKey }, answers));
}

/**
 * Answers or skips question `id` with its draft's one resolution id, so the gateway answers a repeat with the first result (Q5).
 * A submit the client gave up on (the gateway down past the request timeout) goes again by itself once the connection is
 * back (U11, P7): the same resolution id, so never a second answer. The draft keeps the id and what was tried right after
 * the frame is handed to the socket, in the same task (no reply can come in between), so its storage write is not
 * ahead of the answer.
 */
export function resolveWithDraft(client: GatewayClient, id: string, resolution: Resolution, surface: AnswerSurface): Promise<Result<'question.resolve'>> {
  const resolutionId = resolutionIdOf(id);
  const sent =
    resolution.kind === 'skip'
      ? requestUntilAnswered(client, 'question.resolve', { id, skip: true, resolutionId, surface })
      : requestUntilAnswered(client, 'question.resolve', { id, answers: resolution.answers, resolutionId, surface, ...(resolution.grant && { grant: resolution.grant }) });
  draftActions().submitStarted(id, resolution.kind === 'answer' ? resolution.answers : 'skip', resolutionId);
  return sent;
}

/** A resolve refused because the record already ended or is gone: nothing is left to send from its draft. */
export function endedElsewhere(error: unknown): boolean {
  const code = errorCode(error);
  return code === 'QUESTION_ALREADY_TERMINAL' || code === 'QUESTION_NOT_FOUND';
}

const protocolErrors = retryingImport(() => import('../../../../protocol/errors.ts'));

export type TerminalOutcome = Omit<Exclude<ErrorDetails<'QUESTION_ALREADY_TERMINAL'>, { name: string }>, 'id'>;

/**
 * The outcome QUESTION_ALREADY_TERMINAL carries in its details, if it carries one. The protocol's schemas are a chunk
 * of their own (the first load carries no zod); the client loaded it before it connected, so this waits only a tick.
 */
export async function terminalOutcome(error: unknown): Promise<TerminalOutcome | null> {
  const { errorDetails } = await protocolErrors.load();
  const details = errorDetails(error, 'QUESTION_ALREADY_TERMINAL');
  // A question's outcome; a secret request's (by name) is not one.
  if (!details || 'name' in details) return null;
  const { id: _id, ...outcome } = details;
  return outcome;
}

/** E3: the identities a routed question waits for, as a FORBIDDEN refusal names them in `details.eligible`. */
function eligibleOf(error: unknown): string[] | undefined {
  const eligible = (error as { details?: { eligible?: unknown } } | null)?.details?.eligible;
  return Array.isArray(eligible) ? eligible.filter((e): e is string => typeof e === 'string') : undefined;
}

/** A5: whether a FORBIDDEN names the scopes it needs (`details.needed`), as a refusal for the identity's scopes does. */
function neededOf(error: unknown): boolean {
  const needed = (error as { details?: { needed?: unknown } } | null)?.details?.needed;
  return Array.isArray(needed) && needed.length > 0;
}

/** What a failed submit says under the form; nothing when the record simply ended (its outcome shows instead). */
export function submitProblem(error: unknown): string | null {
  if (!error || endedElsewhere(error)) return null;
  if (errorCode(error) === 'QUESTION_INVALID_ANSWER') return `Not accepted: ${errorMessage(error)}`;
  const waiting = errorCode(error) === 'FORBIDDEN' ? forbiddenText(eligibleOf(error)) : null;
  if (waiting) return `Not yours to answer: ${waiting}.`;
  // Refused for a scope this identity lacks (a grant wider than it may make, G5): the same answer would be refused again.
  if (errorCode(error) === 'FORBIDDEN' && neededOf(error)) return `Not allowed: ${errorMessage(error)}. Your answers are kept.`;
  return `Not sent: ${errorMessage(error)}. Your answers are kept; try again.`;
}

/** QUESTION_ALREADY_TERMINAL carries the record's outcome; read it where it is, else read the record again. */
function endedWhileSending(qc: QueryClient, id: string, error: unknown) {
  draftActions().draftDiscarded(id);
  // Without the outcome (its code could not be loaded) the records are read again.
  void terminalOutcome(error)
    .catch(() => null)
    .then((outcome) => {
      if (outcome && questionResolved(qc, { id, ...outcome })) return;
      void qc.invalidateQueries({ queryKey: questionsKey, exact: true });
      void qc.invalidateQueries({ queryKey: ['question.get', id] });
    });
}

/** Whether a submit of this record is in flight, also after the dock switched requests and back. */
export function useIsSubmitting(recordId: string): boolean {
  const predicate = (m: { state: { variables: unknown } }) => (m.state.variables as Variables | undefined)?.record.id === recordId;
  return useIsMutating({ mutationKey: submitKey, predicate }) > 0;
}

/**
 * Answer and Skip for one record from `surface`. Skipping an async question in the dock sends nothing: only this
 * browser knows (U8). `onDone` runs once an answer is on its way (resolved, or safely in the outbox).
 */
export function useSubmitAnswer(record: QuestionRecord, surface: AnswerSurface, onDone?: () => void) {
  const client = useGateway();
  const qc = useQueryClient();
  const outbox = useOutbox();
  const busy = useIsSubmitting(record.id);
  const maySend = useMaySendMessages() !== false;
  // E5: a second Allow from the same person counts once; they are told so under the form (the first shows in the routing row).
  const [again, setAgain] = useState<{ recordId: string; text: string } | null>(null);
  const mutation = useMutation({
    mutationKey: submitKey,
    mutationFn: async (v: Variables) => {
      if (v.kind === 'answer' && answerRoute(v.record, surface, maySend) === 'outbox') {
        await queueAsyncAnswer(outbox, v.record, v.answers);
        return null;
      }
      return resolveWithDraft(client, v.record.id, v, surface);
    },
    onSuccess: (result, { record }) => {
      if (!result) return;
      const cached = qc.getQueryData<QuestionRecord[]>(questionsKey)?.find((r) => r.id === record.id);
      // E5: an Allow held short of a quorum leaves the question open for the next approver: it shows the count, nobody answered it.
      if (result.status === 'pending') {
        voteHeld(qc, record.id, result.quorum);
        if (result.quorum && votedBefore(record, client.hello?.auth.identity)) setAgain({ recordId: record.id, text: heldVoteText(result.quorum, true) });
      }
      // The gateway's own event may have landed first and is the better record.
      else if (cached?.status === 'pending') {
        const resolvedBy = { identity: client.hello?.auth.identity ?? '', surface, atMs: Date.now() };
        questionResolved(qc, { id: record.id, status: result.status, answers: result.answers, resolvedBy });
      }
      draftActions().submitSucceeded(record.id);
    },
    onError: (error: unknown, { record }) => {
      if (endedElsewhere(error)) endedWhileSending(qc, record.id, error);
    },
  });

  const answer = (answers: Answers) => {
    setAgain(null);
    const grant = grantRequestOf(record.questions, answers);
    mutation.mutate({ record, kind: 'answer', answers, ...(grant && { grant }) }, { onSuccess: onDone });
  };
  const skip = () => {
    setAgain(null);
    if (record.mode === 'async' && surface === 'control-ui') {
      skipActions().asyncSkipped(record.id);
      onDone?.();
    } else mutation.mutate({ record, kind: 'skip' }, { onSuccess: onDone });
  };
  const error = mutation.variables?.record.id === record.id ? mutation.error : null;
  return { answer, skip, busy, problem: submitProblem(error), notice: again?.recordId === record.id ? again.text : null };
}

/** E5: whether `identity`'s Allow was already held on the record as it was when the answer was sent. */
const votedBefore = (record: QuestionRecord, identity: string | undefined) =>
  identity !== undefined && (record.route?.quorum?.approvals.some((a) => a.identity === identity) ?? false);
