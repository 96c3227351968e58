import { GRANT_MAKERS, grantRequestOf, grantScopeOf, isOffer, mayMakeGrant } from '../../answers/kinds/approval-offers.ts';
import { readPlainTextReply } from '../../answers/plain-text.ts';
import { AskdockError, errorDetails, MESSAGE_MAX, type GrantScope, type QuestionRecord } from '../../protocol/index.ts';

/** What a press is told when the gateway could not take it for its own reasons (a lost write, an outage). */
const TRY_AGAIN = 'Could not answer just now; try again.';

const NOT_ANSWERABLE: ReadonlySet<string> = new Set(['FORBIDDEN', 'QUESTION_NOT_FOUND', 'SESSION_NOT_FOUND']);

/** A3/A4: a refusal that means the person may not answer the question (or may not see it), not a passing failure. */
const isNotAnswerable = (err: unknown) => err instanceof AskdockError && NOT_ANSWERABLE.has(err.code);

/**
 * G5: the scopes a grant of `scope` needs, when the person (holding `scopes`) may not make it; null when it may, or when
 * the refusal is not a FORBIDDEN (decided from the person's own scopes, not from the refusal's details, which a refused
 * write names the same way).
 */
function grantNeeds(err: unknown, scope: GrantScope | null, scopes: ReadonlySet<string> | undefined): readonly string[] | null {
  if (!(err instanceof AskdockError) || err.code !== 'FORBIDDEN' || scope === null || scopes === undefined || mayMakeGrant(scopes, scope)) return null;
  return GRANT_MAKERS[scope];
}

/** G5: the words for an "Always allow…" offer the person may not make, after "You" (a press) or "Not sent: you" (a reply). */
const choiceNotAllowed = (needed: readonly string[]) =>
  `may not choose that: it needs ${needed.join(' or ')}. Answer Allow for this request only.`;

/** A press's answer the gateway refused: its question, the pressed choice, and whether the presser may answer it at all (A3). */
export type PressedChoice = { q: QuestionRecord; choice: string; scopes: ReadonlySet<string> | undefined; mayAnswer: () => Promise<boolean> };

/**
 * H4: what a refused press is told. A person who may answer but pressed an offer whose grant needs more than they hold
 * (G5) is told that choice needs those scopes; the other refusals keep their words.
 */
export async function pressRefusal(err: unknown, log: (line: string) => void, pressed?: PressedChoice): Promise<string> {
  if (err instanceof AskdockError && err.code === 'QUESTION_ALREADY_TERMINAL') return 'This question was already resolved.';
  if (!isNotAnswerable(err)) {
    log(`a button press failed: ${(err as Error).message}`);
    return TRY_AGAIN;
  }
  log(`a button press was refused: ${(err as Error).message}`);
  const item = pressed?.q.questions[0];
  const label = item?.options[Number(pressed?.choice)]?.label;
  const scope = item !== undefined && label !== undefined && isOffer(item, label) ? grantScopeOf(label) : null;
  const needed = grantNeeds(err, scope, pressed?.scopes);
  // One who may not answer the question at all is told that, not what the choice needs.
  if (needed && (await pressed!.mayAnswer().catch(() => false))) return `You ${choiceNotAllowed(needed)}`;
  return 'You may not answer this question.';
}

/** The grant a typed reply, read by the plain-text rules (PT1-PT4), asks for by naming an offer (G12), if any. */
function replyGrant(q: Pick<QuestionRecord, 'questions'>, text: string): GrantScope | null {
  const reading = readPlainTextReply(q.questions, text);
  return reading.outcome === 'answered' ? (grantRequestOf(q.questions, reading.answers)?.scope ?? null) : null;
}

/** C2: what is wrong with the text itself when the gateway refused its `message` field (empty, or past MESSAGE_MAX); else null. */
function textProblem(err: unknown, text: string): string | null {
  const fields = errorDetails(err, 'INVALID_REQUEST');
  if (!Array.isArray(fields) || !fields.some((f) => f.path === 'message')) return null;
  return text.length > MESSAGE_MAX ? `the message is too long (at most ${MESSAGE_MAX} characters)` : 'the message is empty';
}

/**
 * H2/H4: what a person's ordinary message (no question of theirs pending) the gateway refused is told, decided from the
 * refusal's code and details alone, so no identity, token or session name reaches the conversation (A4).
 */
export function messageRefusal(err: unknown, text: string): string {
  const problem = textProblem(err, text);
  if (problem) return `Not sent: ${problem}.`;
  if (errorDetails(err, 'FORBIDDEN')?.method === 'sessions.create') return 'Not sent: you may not start a session here.';
  // A4: a session the person may not see is refused as not found; both mean the same to them.
  if (err instanceof AskdockError && (err.code === 'FORBIDDEN' || err.code === 'SESSION_NOT_FOUND')) return 'Not sent: you may not write in this session.';
  return 'Not sent: could not send just now; try again.';
}

/**
 * H4/PT5: what a typed reply the gateway refused is told, in the form of the channel's other unsent replies ("Not sent: …").
 * `q` is the reply's target, which the replier (holding `scopes`) was found able to answer (A3).
 */
export function replyRefusal(err: unknown, q: Pick<QuestionRecord, 'questions'>, text: string, scopes: ReadonlySet<string> | undefined): string {
  const problem = textProblem(err, text);
  if (problem) return `Not sent: ${problem}.`;
  const needed = grantNeeds(err, replyGrant(q, text), scopes);
  if (needed) return `Not sent: you ${choiceNotAllowed(needed)}`;
  if (isNotAnswerable(err)) return 'Not sent: you may not answer this question.';
  return 'Not sent: could not answer just now; try again.';
}
