/**
 * The ask_user call (T1, T3): what a caller passes, validation that reports every field at fault with its path and rule,
 * normalisation and timeout clamping.
 */
import {
  QuestionList,
  formatPath,
  type FieldProblem,
  type QuestionItem,
  type QuestionItemInput,
} from '../protocol/index.ts';
import { choosesSeveral, SEVERAL_FIELD, severalField } from '../answers/kinds/choice.ts';
import { askUserError, clampTimeoutSeconds, DEFAULT_TIMEOUT_SECONDS, MAX_TIMEOUT_SECONDS, MIN_TIMEOUT_SECONDS, type AskUserCall, type AskUserQuestion } from './ask-user-result.ts';

/** What a caller (a model, the SDK user, the CLI) passes. */
export type AskUserInput = {
  questions: QuestionItemInput[];
  timeoutSeconds?: number;
};

const TOP_KEYS = ['questions', 'timeoutSeconds'];
const ITEM_KEYS = ['id', 'header', 'question', 'options', SEVERAL_FIELD, 'url'];
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
          return { ...dropNull(item, [SEVERAL_FIELD, 'url']), options };
        })
      : raw;
    const parsed = QuestionList.safeParse(cleaned);
    if (parsed.success) {
      questions = parsed.data.map((item) => {
        const { [SEVERAL_FIELD]: _several, url, ...q } = item;
        return {
          ...q,
          ...(url ? { url } : {}),
          // An empty description says nothing; leave it out rather than show a blank line.
          options: q.options.map((o) => (o.description ? o : { label: o.label })),
          ...severalField(choosesSeveral(item)),
        };
      });
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
