/**
 * X5/Q12: an MCP elicitation (`elicitation/create`, form and url modes) asked in askdock. Each property of the requested
 * schema is a question of the kind that fits (elicitation-fields.ts); the gateway checks typed values, and what it
 * cannot check (an exclusive bound on a number) is refused here with the rule and asked again. Framework-free: the proxy (`askdock mcp-proxy`) and the hook's Elicitation event use it.
 */
import { CONFIRM_LABELS, cutCodePoints, cutHeader, QUESTION_DETAIL_MAX, QUESTION_TEXT_MAX, type QuestionItemInput } from '../protocol/index.ts';
import { LINK_LABELS, linkDone } from '../answers/kinds/link.ts';
import { askerSurface, resolveShortly } from './sdk-ask.ts';
import { askPrompt, type PromptOptions } from './ask-prompt.ts';
import { fieldQuestion, readField, schemaFields, type Field, type FieldValue, type RequestedSchema } from './elicitation-fields.ts';
import type { Agent } from './sdk.ts';

export type { RequestedSchema, SchemaProperty } from './elicitation-fields.ts';

export type ElicitationRequest =
  | { mode?: 'form'; message: string; requestedSchema: RequestedSchema }
  | { mode: 'url'; message: string; url: string; elicitationId?: string };

export type ElicitOutcome =
  | { action: 'accept'; content?: Record<string, FieldValue> }
  | { action: 'decline'; skipped: boolean }
  | { action: 'cancel'; reason: 'expired' | 'cancelled' };

export type ElicitOptions = PromptOptions & {
  /** Who asks, shown with each question: the MCP server's name. */
  source: string;
  /** Resolves when the server says a url-mode step is complete (`notifications/elicitation/complete`). */
  completed?: Promise<void>;
};

const PER_PROMPT = 3;

/**
 * X5: asks an elicitation in askdock. Form: up to 3 fields a prompt, consecutive prompts for more; a value that does
 * not fit its field is refused with the rule and asked again. Url: a question with the link and Done / Decline.
 */
export async function askElicitation(agent: Agent, req: ElicitationRequest, given: ElicitOptions): Promise<ElicitOutcome> {
  // E1: routes match what an MCP server asks as kind `elicitation`, whether the proxy or a hook asks it.
  const opts: ElicitOptions = { ...given, elicitation: true };
  const noAnswer = (reason: 'skipped' | 'expired' | 'cancelled'): ElicitOutcome =>
    reason === 'skipped' ? { action: 'decline', skipped: true } : { action: 'cancel', reason };
  if (req.mode === 'url') return askUrl(agent, req, opts);
  const fields = schemaFields(req.requestedSchema);
  // A form without fields is a plain confirmation: it is asked like any other, never accepted on nobody's word (X6).
  if (fields.length === 0) return askConfirmation(agent, req.message, opts);
  const content: Record<string, FieldValue> = {};
  for (let i = 0; i < fields.length; i += PER_PROMPT) {
    let pending = fields.slice(i, i + PER_PROMPT);
    const refusals = new Map<string, string>();
    while (pending.length > 0) {
      const questions = pending.map((f) => withMessage(fieldQuestion(f), req.message, opts.source, refusals.get(f.id)));
      const result = await askPrompt(agent, questions, opts);
      // Q5/X5: Skip is the person's Decline of the whole request; expiry or a cancel is `cancel`.
      if (result.status === 'no_answer') return noAnswer(result.reason);
      const again: Field[] = [];
      refusals.clear();
      for (const f of pending) {
        const read = readField(f, result.answers.answers[f.id]);
        if ('problem' in read) {
          refusals.set(f.id, read.problem);
          again.push(f);
        } else if ('value' in read) content[f.key] = read.value;
      }
      pending = again;
    }
  }
  return { action: 'accept', content };
}

function withMessage(q: QuestionItemInput, message: string, source: string, refusal?: string): QuestionItemInput {
  const lines = [`${source} asks: ${message.trim()}`];
  if (refusal) lines.push('', `Not accepted: ${refusal}. Answer again.`);
  const expects = (q.detail ?? '').split('\n').find((l) => l.startsWith('Expects: '));
  if (expects) lines.push('', expects);
  return { ...q, detail: cutCodePoints(lines.join('\n'), QUESTION_DETAIL_MAX) };
}

/** X5/X6/Q12: an elicitation that asks for nothing but a yes is a `confirm` question: Yes gives `accept` with no content, No `decline`. */
async function askConfirmation(agent: Agent, message: string, opts: ElicitOptions): Promise<ElicitOutcome> {
  const question: QuestionItemInput = {
    id: 'confirm',
    header: cutHeader(opts.source),
    question: cutCodePoints(`${opts.source}: ${message.trim() || 'Go ahead?'}`, QUESTION_TEXT_MAX),
    kind: 'confirm',
  };
  const result = await askPrompt(agent, [question], opts);
  if (result.status === 'no_answer') return result.reason === 'skipped' ? { action: 'decline', skipped: true } : { action: 'cancel', reason: result.reason };
  return result.answers.answers.confirm?.[0] === CONFIRM_LABELS[0] ? { action: 'accept', content: {} } : { action: 'decline', skipped: false };
}

async function askUrl(agent: Agent, req: { message: string; url: string }, opts: ElicitOptions): Promise<ElicitOutcome> {
  const question: QuestionItemInput = {
    id: 'link',
    header: cutHeader(opts.source),
    question: cutCodePoints(`${opts.source}: ${req.message.trim() || 'Finish this step in your browser'}`, QUESTION_TEXT_MAX),
    kind: 'link',
    url: req.url,
    detail: `${opts.source} asks you to open:\n${req.url}`,
  };
  const inner = new AbortController();
  const onOuter = () => inner.abort(opts.signal?.reason);
  opts.signal?.addEventListener('abort', onOuter, { once: true });
  let done = false;
  let asked: string | undefined;
  void opts.completed?.then(async () => {
    done = true;
    // X5: the server's word resolves the question as Done (every surface shows it done); if that cannot be, it is withdrawn.
    if (asked === undefined || !(await answerDone(agent, asked, opts.askSource))) inner.abort(new Error('completed'));
  });
  const onAsked = (id: string) => {
    asked = id;
    opts.onAsked?.(id);
  };
  try {
    const result = await askPrompt(agent, [question], { ...opts, onAsked, signal: inner.signal });
    if (result.status === 'no_answer') return result.reason === 'skipped' ? { action: 'decline', skipped: true } : { action: 'cancel', reason: result.reason };
    return linkDone(result.answers.answers.link ?? []) ? { action: 'accept' } : { action: 'decline', skipped: false };
  } catch (err) {
    // The server said the step is complete: the question is withdrawn and the elicitation accepted.
    if (done && !opts.signal?.aborted) return { action: 'accept' };
    throw err;
  } finally {
    opts.signal?.removeEventListener('abort', onOuter);
  }
}

/**
 * Answers the asker's own link question Done (PROTOCOL Q1 surface of the proxy); false when the gateway would not, or
 * does not say so within about a second (the question is then withdrawn, as a cancel would be).
 */
async function answerDone(agent: Agent, id: string, askSource: string | undefined): Promise<boolean> {
  const surface = askerSurface(askSource);
  const r = await resolveShortly(agent.client, { id, answers: { link: [LINK_LABELS[0]] }, ...(surface ? { surface } : {}) });
  return r?.status === 'answered';
}
