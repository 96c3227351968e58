/**
 * X5: an MCP elicitation (`elicitation/create`, form and url modes) asked in askdock. Each property of the requested
 * schema is a question; answers are checked against the schema and typed; a value that does not fit is refused with
 * the rule and asked again. Framework-free: the proxy (`askdock mcp-proxy`) and the hook's Elicitation event use it.
 */
import { cutCodePoints, DESCRIPTION_MAX, HEADER_MAX, LABEL_MAX, QUESTION_DETAIL_MAX, QUESTION_TEXT_MAX, type ChoiceItemInput, type QuestionItemInput } from '../protocol/index.ts';
import { linkDone } from '../answers/kinds/link.ts';
import { askPrompt, type PromptOptions } from './ask-prompt.ts';
import type { Agent } from './sdk.ts';

export type SchemaProperty = {
  type?: string;
  title?: string;
  description?: string;
  enum?: unknown[];
  enumNames?: string[];
  oneOf?: { const?: unknown; title?: string }[];
  anyOf?: { const?: unknown; title?: string }[];
  items?: { type?: string; enum?: unknown[]; anyOf?: { const?: unknown; title?: string }[] };
  minimum?: number;
  maximum?: number;
  /** JSON Schema 2020-12: a bound the value must stay above / below; draft 4's `true` makes minimum / maximum exclusive. */
  exclusiveMinimum?: number | boolean;
  exclusiveMaximum?: number | boolean;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  format?: string;
  default?: unknown;
};
export type RequestedSchema = { type?: string; properties?: Record<string, SchemaProperty>; required?: string[] };

export type ElicitationRequest =
  | { mode?: 'form'; message: string; requestedSchema: RequestedSchema }
  | { mode: 'url'; message: string; url: string; elicitationId?: string };

export type ElicitOutcome =
  | { action: 'accept'; content?: Record<string, string | number | boolean | string[]> }
  | { action: 'decline'; skipped: boolean }
  | { action: 'cancel'; reason: 'expired' | 'cancelled' | 'chosen' };

const RECOMMENDED = ' (Recommended)';
export const LEAVE_EMPTY = 'Leave empty';
export const DECLINE = 'Decline';
export const CANCEL = 'Cancel';
export const DONE = 'Done';

type Choice = { label: string; value: string | number | boolean };

/** The field's fixed choices: enum, oneOf/anyOf of consts, a boolean's Yes / No, an array's item enum. */
function choicesOf(p: SchemaProperty): Choice[] | null {
  const consts = (list?: { const?: unknown; title?: string }[]) =>
    list?.every((o) => o && o.const !== undefined) ? list.map((o) => ({ label: String(o.title ?? o.const), value: o.const as string })) : null;
  if (p.type === 'boolean') return [{ label: 'Yes', value: true }, { label: 'No', value: false }];
  if (p.type === 'array') return p.items?.enum ? p.items.enum.map((v) => ({ label: String(v), value: v as string })) : consts(p.items?.anyOf);
  if (Array.isArray(p.enum)) return p.enum.map((v, i) => ({ label: String(p.enumNames?.[i] ?? v), value: v as string }));
  return consts(p.oneOf) ?? consts(p.anyOf);
}

/** A property key as a question id (snake_case), unique within the prompt. */
function idFor(key: string, taken: Set<string>): string {
  let base = key.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase().replace(/[^a-z0-9_]+/g, '_').replace(/^[^a-z]+/, '');
  if (!base) base = 'field';
  base = base.slice(0, 60);
  let id = base;
  for (let n = 2; taken.has(id); n++) id = `${base}_${n}`;
  taken.add(id);
  return id;
}

export type Field = { key: string; id: string; prop: SchemaProperty; required: boolean; choices: Choice[] | null };

/** The schema's properties in order, each with its question id and choices. */
export function schemaFields(schema: RequestedSchema): Field[] {
  const taken = new Set<string>();
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties ?? {}).map(([key, prop]) => ({ key, id: idFor(key, taken), prop, required: required.has(key), choices: choicesOf(prop) }));
}

const asLabel = (s: string) => cutCodePoints(s.trim() || '(empty)', LABEL_MAX);

/** What the field expects, for the question's detail and a refusal. */
function ruleText(f: Field): string {
  const p = f.prop;
  const parts: string[] = [];
  if (f.choices && f.choices.length > 4) parts.push(`One of: ${f.choices.map((c) => c.label).join(', ')}`);
  if (p.type === 'number' || p.type === 'integer') parts.push(p.type === 'integer' ? 'A whole number' : 'A number');
  const { low, high } = numberBounds(p);
  if (low) parts.push(`${low.exclusive ? 'more than' : 'at least'} ${low.value}`);
  if (high) parts.push(`${high.exclusive ? 'less than' : 'at most'} ${high.value}`);
  if (p.minLength !== undefined) parts.push(`at least ${p.minLength} characters`);
  if (p.maxLength !== undefined) parts.push(`at most ${p.maxLength} characters`);
  if (p.format) parts.push(`format ${p.format}`);
  parts.push(f.required ? 'required' : 'optional');
  return parts.join(', ');
}

/** X5: one field as a question: title the header, description the question, its choices or free text, the default first. */
export function fieldQuestion(f: Field, source: string): ChoiceItemInput {
  const p = f.prop;
  const def = p.default;
  const defLabel = def === undefined ? undefined : f.choices?.find((c) => c.value === def)?.label ?? (p.type === 'boolean' ? (def ? 'Yes' : 'No') : String(def));
  let options: { label: string; description?: string }[];
  const multi = p.type === 'array';
  if (f.choices && f.choices.length >= 2 && f.choices.length <= 4) {
    options = f.choices.map((c) => ({ label: asLabel(c.label) }));
  } else {
    // Free text (Other) answers; the options offer what can be said without typing.
    options = (f.choices ?? []).slice(0, 4).map((c) => ({ label: asLabel(c.label) }));
    if (options.length < 2) {
      options = [];
      if (defLabel !== undefined) options.push({ label: asLabel(defLabel) });
      if (!f.required) options.push({ label: LEAVE_EMPTY, description: 'Send no value for this field' });
    }
  }
  if (defLabel !== undefined && !multi) {
    const i = options.findIndex((o) => o.label === asLabel(defLabel));
    if (i >= 0) options = [{ ...options[i], label: asLabel(options[i].label + RECOMMENDED), description: 'The default' }, ...options.filter((_, j) => j !== i)];
  }
  if (options.length < 2) options.push({ label: DECLINE, description: `Answer none of ${cutCodePoints(source, 60)}'s questions` });
  if (options.length < 2) options.push({ label: CANCEL, description: 'Dismiss the request without a decision' });
  options = options.slice(0, 4);
  return {
    id: f.id,
    header: cutCodePoints((p.title ?? f.key).trim() || f.key, HEADER_MAX),
    question: cutCodePoints((p.description ?? p.title ?? f.key).trim() || f.key, QUESTION_TEXT_MAX),
    options: options.map((o) => (o.description ? { ...o, description: cutCodePoints(o.description, DESCRIPTION_MAX) } : o)),
    ...(multi ? { multiSelect: true } : {}),
    detail: `Expects: ${ruleText(f)}`,
  };
}

type Bound = { value: number; exclusive: boolean };

/** A field's lower and upper bound as JSON Schema reads them: minimum / maximum inclusive, exclusiveMinimum / exclusiveMaximum not. */
function numberBounds(p: SchemaProperty): { low?: Bound; high?: Bound } {
  const pick = (inclusive: number | undefined, exclusive: number | boolean | undefined, tighter: (a: number, b: number) => boolean): Bound | undefined => {
    const num = (v: unknown) => typeof v === 'number' && Number.isFinite(v);
    // Draft 4: a boolean exclusive bound makes its minimum / maximum exclusive.
    if (typeof exclusive === 'boolean') return num(inclusive) ? { value: inclusive!, exclusive } : undefined;
    const a = num(inclusive) ? { value: inclusive!, exclusive: false } : undefined;
    const b = num(exclusive) ? { value: exclusive as number, exclusive: true } : undefined;
    if (!a || !b) return a ?? b;
    // Both given: the tighter one rules; at the same value the exclusive one is the tighter.
    return tighter(a.value, b.value) ? a : b;
  };
  return { low: pick(p.minimum, p.exclusiveMinimum, (a, b) => a > b), high: pick(p.maximum, p.exclusiveMaximum, (a, b) => a < b) };
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

/** Marker for an answer that means "no value" or a whole-request choice. */
export type Special = { special: 'empty' | 'decline' | 'cancel' };

/** Checks one field's answer values; the typed value, a special choice, or why it is refused. */
export function readField(f: Field, values: string[]): { value: string | number | boolean | string[] } | Special | { problem: string } {
  const p = f.prop;
  const clean = values.map((v) => (v.endsWith(RECOMMENDED) ? v.slice(0, -RECOMMENDED.length) : v).trim());
  const first = clean[0] ?? '';
  const offered = (label: string) => !f.choices?.some((c) => c.label === label);
  if (first === DECLINE && offered(DECLINE)) return { special: 'decline' };
  if (first === CANCEL && offered(CANCEL)) return { special: 'cancel' };
  if ((first === LEAVE_EMPTY && offered(LEAVE_EMPTY)) || first === '') {
    return f.required ? { problem: `${f.prop.title ?? f.key} is required` } : { special: 'empty' };
  }
  if (p.type === 'array') {
    const picked = clean.map((v) => f.choices?.find((c) => c.label.toLowerCase() === v.toLowerCase()));
    if (picked.some((c) => !c)) return { problem: `"${clean[picked.findIndex((c) => !c)]}" is not one of: ${f.choices!.map((c) => c.label).join(', ')}` };
    if (p.minItems !== undefined && picked.length < p.minItems) return { problem: `choose at least ${p.minItems}` };
    if (p.maxItems !== undefined && picked.length > p.maxItems) return { problem: `choose at most ${p.maxItems}` };
    return { value: picked.map((c) => String(c!.value)) };
  }
  if (f.choices) {
    const c = f.choices.find((x) => x.label.toLowerCase() === first.toLowerCase() || String(x.value).toLowerCase() === first.toLowerCase());
    return c ? { value: c.value } : { problem: `"${first}" is not one of: ${f.choices.map((x) => x.label).join(', ')}` };
  }
  if (p.type === 'number' || p.type === 'integer') {
    const n = Number(first);
    if (!/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(first) || !Number.isFinite(n)) return { problem: `"${first}" is not a number` };
    if (p.type === 'integer' && !Number.isInteger(n)) return { problem: `"${first}" is not a whole number` };
    const { low, high } = numberBounds(p);
    if (low && (low.exclusive ? n <= low.value : n < low.value)) return { problem: low.exclusive ? `${n} is not more than ${low.value}` : `${n} is less than ${low.value}` };
    if (high && (high.exclusive ? n >= high.value : n > high.value)) return { problem: high.exclusive ? `${n} is not less than ${high.value}` : `${n} is more than ${high.value}` };
    return { value: n };
  }
  const len = Array.from(first).length;
  if (p.minLength !== undefined && len < p.minLength) return { problem: `it must be at least ${p.minLength} characters` };
  if (p.maxLength !== undefined && len > p.maxLength) return { problem: `it must be at most ${p.maxLength} characters` };
  if (p.format === 'email' && !EMAIL.test(first)) return { problem: `"${first}" is not an email address` };
  if (p.format === 'uri' && !isUri(first)) return { problem: `"${first}" is not an address (URI)` };
  if (p.format === 'date' && !(DATE.test(first) && !Number.isNaN(Date.parse(first)))) return { problem: `"${first}" is not a date (YYYY-MM-DD)` };
  if (p.format === 'date-time' && !(DATE_TIME.test(first) && !Number.isNaN(Date.parse(first)))) return { problem: `"${first}" is not a date and time (YYYY-MM-DDThh:mm:ssZ)` };
  return { value: first };
}

function isUri(s: string): boolean {
  try {
    return /^[a-z][a-z0-9+.-]*:/i.test(s) && Boolean(new URL(s));
  } catch {
    return false;
  }
}

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
export async function askElicitation(agent: Agent, req: ElicitationRequest, opts: ElicitOptions): Promise<ElicitOutcome> {
  const noAnswer = (reason: 'skipped' | 'expired' | 'cancelled'): ElicitOutcome =>
    reason === 'skipped' ? { action: 'decline', skipped: true } : { action: 'cancel', reason };
  if (req.mode === 'url') return askUrl(agent, req, opts);
  const fields = schemaFields(req.requestedSchema);
  // A form without fields is a plain confirmation: it is asked like any other, never accepted on nobody's word (X6).
  if (fields.length === 0) return askConfirmation(agent, req.message, opts);
  const content: Record<string, string | number | boolean | string[]> = {};
  for (let i = 0; i < fields.length; i += PER_PROMPT) {
    let pending = fields.slice(i, i + PER_PROMPT);
    const refusals = new Map<string, string>();
    while (pending.length > 0) {
      const questions = pending.map((f) => withMessage(fieldQuestion(f, opts.source), req.message, opts.source, refusals.get(f.id)));
      const result = await askPrompt(agent, questions, opts);
      if (result.status === 'no_answer') return noAnswer(result.reason);
      const again: Field[] = [];
      refusals.clear();
      for (const f of pending) {
        const read = readField(f, result.answers.answers[f.id] ?? []);
        if ('special' in read) {
          if (read.special === 'decline') return { action: 'decline', skipped: false };
          if (read.special === 'cancel') return { action: 'cancel', reason: 'chosen' };
          continue;
        }
        if ('problem' in read) {
          refusals.set(f.id, read.problem);
          again.push(f);
        } else content[f.key] = read.value;
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

const ACCEPT = 'Accept';

/** X5/X6: an elicitation that asks for nothing but a yes: Accept gives `accept` with no content, Decline `decline`. */
async function askConfirmation(agent: Agent, message: string, opts: ElicitOptions): Promise<ElicitOutcome> {
  const question: QuestionItemInput = {
    id: 'confirm',
    header: cutCodePoints(opts.source, HEADER_MAX),
    question: cutCodePoints(`${opts.source}: ${message.trim() || 'Go ahead?'}`, QUESTION_TEXT_MAX),
    options: [{ label: ACCEPT }, { label: DECLINE }],
  };
  const result = await askPrompt(agent, [question], opts);
  if (result.status === 'no_answer') return result.reason === 'skipped' ? { action: 'decline', skipped: true } : { action: 'cancel', reason: result.reason };
  return result.answers.answers.confirm?.[0] === ACCEPT ? { action: 'accept', content: {} } : { action: 'decline', skipped: false };
}

async function askUrl(agent: Agent, req: { message: string; url: string }, opts: ElicitOptions): Promise<ElicitOutcome> {
  const question: QuestionItemInput = {
    id: 'link',
    header: cutCodePoints(opts.source, HEADER_MAX),
    question: cutCodePoints(`${opts.source}: ${req.message.trim() || 'Finish this step in your browser'}`, QUESTION_TEXT_MAX),
    kind: 'link',
    url: req.url,
    detail: `${opts.source} asks you to open:\n${req.url}`,
  };
  const inner = new AbortController();
  const onOuter = () => inner.abort(opts.signal?.reason);
  opts.signal?.addEventListener('abort', onOuter, { once: true });
  let done = false;
  void opts.completed?.then(() => {
    done = true;
    inner.abort(new Error('completed'));
  });
  try {
    const result = await askPrompt(agent, [question], { ...opts, signal: inner.signal });
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
