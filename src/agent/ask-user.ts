/**
 * The ask_user tool contract shared by the SDK, the MCP server, the demo agent and `askdock ask`:
 * its JSON Schema and description (T1, T4), validation that reports every field at fault (T3),
 * normalisation, timeout clamping and the result shapes with their text for the model (T2).
 */
import * as z from 'zod';
import {
  HEADER_MAX,
  LABEL_MAX,
  DESCRIPTION_MAX,
  QUESTION_TEXT_MAX,
  QUESTION_ID_PATTERN,
  QUESTION_URL_MAX,
  QuestionList,
  formatPath,
  own,
  type FieldProblem,
  type QuestionItem,
  type QuestionItemInput,
} from '../protocol/index.ts';
import { answerLines, answersAsNamed } from '../answers/summary.ts';
import { askUserError, clampTimeoutSeconds, DEFAULT_TIMEOUT_SECONDS, MAX_TIMEOUT_SECONDS, MIN_TIMEOUT_SECONDS, type AskUserCall, type AskUserQuestion, type AskUserResult, type NoAnswerReason } from './ask-user-result.ts';

export * from './ask-user-result.ts';

export const ASK_USER_TOOL_NAME = 'ask_user';

/** What a caller (a model, the SDK user, the CLI) passes. */
export type AskUserInput = {
  questions: QuestionItemInput[];
  timeoutSeconds?: number;
};

export const ASK_USER_DESCRIPTION = [
  'Ask the user one to three multiple-choice questions and wait for the answers.',
  'Use it only when you are blocked on a decision that genuinely belongs to the user (a preference, a trade-off, which target to pick),',
  'never for information you can derive from the request, the code or a sensible default.',
  '',
  'How to ask:',
  '- Ask exactly one question per call unless several answers must be given together (at most 3).',
  '- Put every selectable choice in `options` (2 to 4), never only in the question text.',
  '- Put the recommended option first and end its label with " (Recommended)".',
  '- Set `multiSelect: true` only when several options can be chosen at once.',
  '- Never add an "Other" option: the user can always type their own answer instead.',
  '- Never ask for a password, API key, token or any other credential or secret.',
  '- Do not ask whether you may proceed, and do not ask the user to confirm your own plan.',
  `- \`header\` is a short label (at most ${HEADER_MAX} characters), \`question\` is one sentence, \`id\` is a unique snake_case key.`,
  '',
  'Result: {"status":"answered","answers":{"answers":{"<id>":["<value>", ...]}}} with an array of values for every question',
  '(a value that is no option label is text the user typed), or {"status":"no_answer","reason":"skipped"|"expired"|"cancelled"}.',
  'After no_answer, continue with your best judgment and do not ask the same question again.',
].join('\n');

/** A JSON Schema node, as far as readers of the published schema look into it. */
export type JsonSchemaNode = { type?: string; properties?: Record<string, JsonSchemaNode>; items?: JsonSchemaNode; required?: string[]; [key: string]: unknown };

const AskUserOptionInput = z.strictObject({
  label: z.string().min(1).max(LABEL_MAX).describe('The choice as the user sees it.'),
  description: z.string().max(DESCRIPTION_MAX).describe('What choosing it means, briefly.').optional(),
});

const AskUserQuestionInput = z.strictObject({
  id: z.string().regex(QUESTION_ID_PATTERN).describe('Unique snake_case key for this answer, e.g. "deploy_target".'),
  header: z.string().min(1).describe(`Short label shown above the question, at most ${HEADER_MAX} characters (longer is cut).`),
  question: z.string().min(1).max(QUESTION_TEXT_MAX).describe('The question, in one sentence.'),
  options: z
    .array(AskUserOptionInput)
    .min(2)
    .max(4)
    .describe('2 to 4 choices, the recommended one first with " (Recommended)" at the end of its label. Never an "Other" option.'),
  multiSelect: z.boolean().describe('true only when several options can be chosen at once.').optional(),
  url: z
    .string()
    .regex(/^https?:\/\//)
    .max(QUESTION_URL_MAX)
    .describe('Optional http(s) page where the user finishes a step before answering (shown as "Open link"), e.g. a pull request to review.')
    .optional(),
});

/** The call as a model writes it; validateAskUser checks it with the protocol's own rules. */
const AskUserInputShape = z.strictObject({
  questions: z.array(AskUserQuestionInput).min(1).max(3).describe('1 to 3 questions, asked together; prefer exactly one.'),
  timeoutSeconds: z
    .int()
    .describe(`How long to wait for the user, in seconds: default ${DEFAULT_TIMEOUT_SECONDS}, clamped to ${MIN_TIMEOUT_SECONDS}..${MAX_TIMEOUT_SECONDS}.`)
    .default(DEFAULT_TIMEOUT_SECONDS),
});

/** The tool's parameters as plain JSON Schema, for LLM tool calling and the MCP `inputSchema` (no `$schema`: older MCP clients read draft-07). */
export const ASK_USER_INPUT_SCHEMA = (() => {
  const { $schema: _dialect, ...schema } = z.toJSONSchema(AskUserInputShape, {
    io: 'input',
    // An integer needs no bounds beyond the clamp its description states.
    override: ({ jsonSchema }) => {
      if (jsonSchema.type === 'integer') {
        delete jsonSchema.minimum;
        delete jsonSchema.maximum;
      }
    },
  });
  return schema as JsonSchemaNode & { type: 'object'; required: string[] };
})();

/** The result as JSON Schema (MCP `outputSchema`): one object, since MCP wants `type: "object"` at the top. */
export const ASK_USER_OUTPUT_SCHEMA = {
  type: 'object',
  required: ['status'],
  properties: {
    status: { type: 'string', enum: ['answered', 'no_answer'] },
    answers: {
      type: 'object',
      required: ['answers'],
      properties: {
        answers: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } },
      },
    },
    reason: { type: 'string', enum: ['skipped', 'expired', 'cancelled'] },
    /** L4: the gateway's signed receipt of the decision (a compact JWS), when its audit log is signed. */
    receipt: { type: 'string' },
  },
} as const;

const TOP_KEYS = ['questions', 'timeoutSeconds'];
const ITEM_KEYS = ['id', 'header', 'question', 'options', 'multiSelect', 'url'];
const OPTION_KEYS = ['label', 'description'];

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Models in strict tool-calling modes send `null` for optional fields they leave out; treat it as left out. */
function dropNull(obj: Record<string, unknown>, keys: string[]): Record<string, unknown> {
  const out = { ...obj };
  for (const k of keys) if (out[k] === null) delete out[k];
  return out;
}

function unknownKeys(obj: Record<string, unknown>, allowed: string[], prefix: string, what: string): FieldProblem[] {
  return Object.keys(obj)
    .filter((k) => !allowed.includes(k))
    .map((k) => ({ path: prefix ? `${prefix}.${k}` : k, problem: `is not a field of ${what} (allowed: ${allowed.join(', ')})` }));
}

export type Validation = { ok: true; value: AskUserCall } | { ok: false; problems: FieldProblem[] };

/** T1/T3: checks a call and returns it normalised, or every field at fault with its path and rule. */
export function validateAskUser(input: unknown): Validation {
  if (!isPlainObject(input)) {
    return { ok: false, problems: [{ path: '(root)', problem: 'arguments must be an object with "questions" (and optionally "timeoutSeconds")' }] };
  }
  const top = dropNull(input, ['timeoutSeconds']);
  const problems: FieldProblem[] = unknownKeys(top, TOP_KEYS, '', 'ask_user');

  let questions: AskUserQuestion[] = [];
  if (top.questions === undefined) {
    problems.push({ path: 'questions', problem: 'questions is required: 1 to 3 questions' });
  } else {
    const raw = top.questions;
    const cleaned = Array.isArray(raw)
      ? raw.map((item, qi) => {
          if (!isPlainObject(item)) return item;
          problems.push(...unknownKeys(item, ITEM_KEYS, `questions[${qi}]`, 'a question'));
          const options = Array.isArray(item.options)
            ? item.options.map((option, oi) => {
                if (!isPlainObject(option)) return option;
                problems.push(...unknownKeys(option, OPTION_KEYS, `questions[${qi}].options[${oi}]`, 'an option'));
                return dropNull(option, ['description']);
              })
            : item.options;
          return { ...dropNull(item, ['multiSelect', 'url']), options };
        })
      : raw;
    const parsed = QuestionList.safeParse(cleaned);
    if (parsed.success) {
      questions = parsed.data.map(({ multiSelect, url, ...q }) => ({
        ...q,
        ...(url ? { url } : {}),
        // An empty description says nothing; leave it out rather than show a blank line.
        options: q.options.map((o) => (o.description ? o : { label: o.label })),
        ...(multiSelect ? { multiSelect } : {}),
      }));
    } else {
      problems.push(...onlyTypeErrors(explainIssues(parsed.error.issues, cleaned)));
    }
  }

  const t = top.timeoutSeconds;
  if (t !== undefined && (typeof t !== 'number' || !Number.isInteger(t))) {
    problems.push({
      path: 'timeoutSeconds',
      problem: `timeoutSeconds must be an integer number of seconds (default ${DEFAULT_TIMEOUT_SECONDS}, clamped to ${MIN_TIMEOUT_SECONDS}..${MAX_TIMEOUT_SECONDS})`,
    });
  }

  if (problems.length) return { ok: false, problems: sortProblems(problems) };
  return {
    ok: true,
    value: { questions, timeoutSeconds: clampTimeoutSeconds(t as number | undefined), timeoutGiven: t !== undefined },
  };
}

/** zod's wording for a missing field or a non-object item reads poorly to a model; say what is expected instead. */
function explainIssues(issues: ReadonlyArray<{ path: PropertyKey[]; message: string }>, questions: unknown): FieldProblem[] {
  return issues.map((issue) => {
    let value: unknown = questions;
    for (const part of issue.path) value = isPlainObject(value) || Array.isArray(value) ? (value as Record<PropertyKey, unknown>)[part] : undefined;
    const last = issue.path[issue.path.length - 1];
    const inOptions = issue.path.includes('options');
    let problem = issue.message;
    if (value === undefined && typeof last === 'string') problem = `${last} is required`;
    else if (/expected object/.test(problem)) {
      problem = inOptions
        ? 'must be an object like {"label": "...", "description": "..."}'
        : 'must be an object like {"id", "header", "question", "options"}';
    }
    return { path: formatPath(['questions', ...issue.path]), problem };
  });
}

/** zod also runs length checks on a value of the wrong type; the type error alone says what to fix. */
function onlyTypeErrors(problems: FieldProblem[]): FieldProblem[] {
  const typed = new Set(problems.filter((p) => / must be an? (array|string|boolean|object)$/.test(p.problem)).map((p) => p.path));
  return problems.filter((p) => !typed.has(p.path) || / must be an? (array|string|boolean|object)$/.test(p.problem));
}

/** Problems in document order, so a reader goes through the call once from top to bottom. */
function sortProblems(problems: FieldProblem[]): FieldProblem[] {
  const key = (p: string) => p.replace(/\[(\d+)\]/g, (_, n: string) => `[${n.padStart(4, '0')}]`);
  return [...problems].sort((a, b) => (key(a.path) < key(b.path) ? -1 : key(a.path) > key(b.path) ? 1 : 0));
}

/** Validates or throws askUserError. */
export function parseAskUser(input: unknown): AskUserCall {
  const v = validateAskUser(input);
  if (!v.ok) throw askUserError(v.problems);
  return v.value;
}

const NO_ANSWER_TEXT: Record<NoAnswerReason, string> = {
  skipped: 'the user declined to answer',
  expired: 'nobody answered in time',
  cancelled: 'the question was withdrawn before anyone answered',
};

/**
 * T2: the text a model reads. One `Header: value, value` line per question (`Deploy: Staging`: a chosen option is named
 * without its ` (Recommended)` mark, and free text keeps to its line), or what to do after no answer. The JSON result
 * beside it keeps every value exactly as answered.
 */
export function resultText(questions: ReadonlyArray<Pick<QuestionItem, 'id' | 'header' | 'question' | 'options'>>, result: AskUserResult): string {
  if (result.status === 'no_answer') {
    return `No answer (${result.reason}): ${NO_ANSWER_TEXT[result.reason]}. Continue with your best judgment and do not ask the same question again.`;
  }
  const named = answersAsNamed(questions, result.answers.answers);
  for (const id of Object.keys(named)) named[id] = named[id].map((v) => v.replace(/\s*\n\s*/g, ' ').trim());
  return answerLines(questions, named).join('\n');
}
