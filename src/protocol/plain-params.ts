import { REQUEST_ID_PATTERN, type MethodName, type Params } from './methods.ts';
import { QUESTION_ITEM_KEYS, SURFACE_PATTERN } from './question.ts';
import { DESCRIPTION_MAX, isLinkUrl, LABEL_MAX, QUESTION_DETAIL_MAX, QUESTION_ID_PATTERN, QUESTION_TEXT_MAX, QUESTION_URL_MAX, SEVERAL_FIELD } from './rules.ts';
import { cutHeader, questionListProblems } from './request-rules.ts';

/*
 * The params of the round trip's three methods (question.request, question.waitAnswer, question.resolve with answers)
 * read without zod when they are plainly well formed: the same value the method's schema gives, for a subset of what
 * it accepts. Anything else (an unknown key, a value out of range, a list rule broken) is `undefined`, and the schema
 * judges it, with its errors. `plain-params.test.ts` holds each against its schema.
 */

type Obj = Record<string, unknown>;

/** A JSON object (as JSON.parse makes it) whose keys are all in `allowed` and whose values are all defined. */
function plainObject(v: unknown, allowed: ReadonlySet<string>): v is Obj {
  if (typeof v !== 'object' || v === null || Object.getPrototypeOf(v) !== Object.prototype) return false;
  for (const key in v) if (!allowed.has(key) || (v as Obj)[key] === undefined) return false;
  return true;
}

const isKey = (v: unknown): v is string => typeof v === 'string' && v.length >= 1 && v.length <= 128;
/** `trimmed(min, max)` of question.ts: the text trimmed, when it fits. */
const trimmedFits = (v: unknown, min: number, max: number): string | undefined => {
  if (typeof v !== 'string') return undefined;
  const t = v.trim();
  return t.length >= min && t.length <= max ? t : undefined;
};

const REQUEST_KEYS = new Set(['id', 'sessionKey', 'runId', 'mode', 'privileged', 'questions', 'timeoutMs']);
const ITEM_KEYS = new Set(QUESTION_ITEM_KEYS);
const OPTION_KEYS = new Set(['label', 'description']);
const WAIT_KEYS = new Set(['id', 'timeoutMs', 'includeResolutionId']);
const ANSWER_KEYS = new Set(['id', 'answers', 'resolutionId', 'surface']);

/** An array of `min..max` entries, each read by `plain`; undefined when any is not plain. */
function plainList(raw: unknown, min: number, max: number, plain: (entry: unknown) => Obj | undefined): Obj[] | undefined {
  if (!Array.isArray(raw) || raw.length < min || raw.length > max) return undefined;
  const out: Obj[] = [];
  for (const entry of raw) {
    const read = plain(entry);
    if (!read) return undefined;
    out.push(read);
  }
  return out;
}

function plainOption(raw: unknown): Obj | undefined {
  if (!plainObject(raw, OPTION_KEYS)) return undefined;
  const label = trimmedFits(raw.label, 1, LABEL_MAX);
  if (label === undefined) return undefined;
  if (!('description' in raw)) return { label };
  const description = trimmedFits(raw.description, 0, DESCRIPTION_MAX);
  return description === undefined ? undefined : { label, description };
}

function plainItem(raw: unknown): Obj | undefined {
  if (!plainObject(raw, ITEM_KEYS)) return undefined;
  const { id, options } = raw;
  // Kinds other than `choice` (their own field rules) go to the schema.
  if (('kind' in raw && raw.kind !== 'choice') || 'input' in raw) return undefined;
  if (typeof id !== 'string' || !QUESTION_ID_PATTERN.test(id) || typeof raw.header !== 'string') return undefined;
  const header = cutHeader(raw.header.trim());
  const question = trimmedFits(raw.question, 1, QUESTION_TEXT_MAX);
  if (header.length < 1 || question === undefined) return undefined;
  const outOptions = plainList(options, 2, 4, plainOption);
  if (!outOptions) return undefined;
  const item: Obj = { id, header, question };
  if ('kind' in raw) item.kind = raw.kind;
  item.options = outOptions;
  if (SEVERAL_FIELD in raw) {
    const several = raw[SEVERAL_FIELD];
    if (typeof several !== 'boolean') return undefined;
    item[SEVERAL_FIELD] = several ? true : undefined;
  }
  if ('url' in raw) {
    const url = trimmedFits(raw.url, 0, QUESTION_URL_MAX);
    if (url === undefined || !isLinkUrl(url)) return undefined;
    item.url = url;
  }
  if ('detail' in raw) {
    // Kept exactly as given; only whitespace reads as absent (QuestionDetail).
    if (typeof raw.detail !== 'string' || raw.detail.length > QUESTION_DETAIL_MAX) return undefined;
    item.detail = raw.detail.trim() === '' ? undefined : raw.detail;
  }
  return item;
}

function plainRequest(raw: unknown): Params<'question.request'> | undefined {
  if (!plainObject(raw, REQUEST_KEYS)) return undefined;
  const { id, sessionKey, runId, mode, privileged, questions, timeoutMs } = raw;
  if (id !== undefined && (typeof id !== 'string' || !REQUEST_ID_PATTERN.test(id))) return undefined;
  if ((sessionKey !== undefined && !isKey(sessionKey)) || (runId !== undefined && !isKey(runId))) return undefined;
  if (mode !== undefined && mode !== 'blocking' && mode !== 'async') return undefined;
  if (privileged !== undefined && typeof privileged !== 'boolean') return undefined;
  if (timeoutMs !== undefined && (typeof timeoutMs !== 'number' || !Number.isFinite(timeoutMs))) return undefined;
  const items = plainList(questions, 1, 3, plainItem);
  if (!items || questionListProblems(questions as unknown[]).length > 0) return undefined;
  // In the schema's key order, with only the keys the request has.
  const out: Obj = {};
  if (id !== undefined) out.id = id;
  if (sessionKey !== undefined) out.sessionKey = sessionKey;
  if (runId !== undefined) out.runId = runId;
  if (mode !== undefined) out.mode = mode;
  if (privileged !== undefined) out.privileged = privileged;
  out.questions = items;
  if (timeoutMs !== undefined) out.timeoutMs = timeoutMs;
  return out as Params<'question.request'>;
}

function plainWait(raw: unknown): Params<'question.waitAnswer'> | undefined {
  if (!plainObject(raw, WAIT_KEYS) || !isKey(raw.id)) return undefined;
  const { timeoutMs, includeResolutionId } = raw;
  if (timeoutMs !== undefined && !(Number.isSafeInteger(timeoutMs) && (timeoutMs as number) >= 0)) return undefined;
  if (includeResolutionId !== undefined && typeof includeResolutionId !== 'boolean') return undefined;
  return { ...raw } as Params<'question.waitAnswer'>;
}

/** The answer branch only: a skip or a cancel goes to the schema. */
function plainAnswer(raw: unknown): Params<'question.resolve'> | undefined {
  if (!plainObject(raw, ANSWER_KEYS) || !isKey(raw.id)) return undefined;
  const { answers, resolutionId, surface } = raw;
  if (typeof answers !== 'object' || answers === null || Object.getPrototypeOf(answers) !== Object.prototype) return undefined;
  const outAnswers: Record<string, string[]> = {};
  for (const key in answers) {
    const picked = (answers as Obj)[key];
    if (key === '__proto__' || !Array.isArray(picked)) return undefined;
    for (const s of picked) if (typeof s !== 'string') return undefined;
    outAnswers[key] = picked.slice();
  }
  if (resolutionId !== undefined && !isKey(resolutionId)) return undefined;
  if (surface !== undefined && (typeof surface !== 'string' || !SURFACE_PATTERN.test(surface))) return undefined;
  return { ...raw, answers: outAnswers } as Params<'question.resolve'>;
}

/** What `methods[method].params` (for question.resolve, its answer branch) gives for `raw`, or undefined: ask the schema. */
export function plainParams(method: MethodName, raw: unknown): unknown {
  if (method === 'question.request') return plainRequest(raw);
  if (method === 'question.waitAnswer') return plainWait(raw);
  if (method === 'question.resolve') return plainAnswer(raw);
  return undefined;
}
