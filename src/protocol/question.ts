import { z } from 'zod';

export const QUESTION_ID_PATTERN = /^[a-z][a-z0-9_]*$/;
export const HEADER_MAX = 12;
export const QUESTION_TEXT_MAX = 1000;
export const LABEL_MAX = 64;
export const DESCRIPTION_MAX = 200;
export const ANSWER_MAX = 4000;
export const DEFAULT_TIMEOUT_MS = 900_000;
export const MIN_TIMEOUT_MS = 30_000;
export const MAX_TIMEOUT_MS = 3_600_000;

/** Cuts to `max` code points, so a header never ends in half an emoji. */
export function cutCodePoints(text: string, max: number): string {
  const points = Array.from(text);
  return points.length > max ? points.slice(0, max).join('') : text;
}

/** Free text is always allowed, so an authored "Other" / "Other…" / "Other (specify)" option is refused. */
export function isAuthoredOther(label: string): boolean {
  const plain = label.trim().toLowerCase().replace(/[\s.…:!?]+$/u, '');
  return plain === 'other' || /^other\s*\(/.test(plain) || plain === 'something else';
}

const trimmed = (min: number, max: number, what: string) =>
  z
    .string({ error: `${what} must be a string` })
    .transform((s) => s.trim())
    .pipe(
      z
        .string()
        .min(min, { error: `${what} must not be blank` })
        .max(max, { error: `${what} must be at most ${max} characters` }),
    );

export const QuestionOption = z.object({
  label: trimmed(1, LABEL_MAX, 'label'),
  description: z
    .string({ error: 'description must be a string' })
    .transform((s) => s.trim())
    .pipe(z.string().max(DESCRIPTION_MAX, { error: `description must be at most ${DESCRIPTION_MAX} characters` }))
    .optional(),
});
export type QuestionOption = z.infer<typeof QuestionOption>;

export const QuestionItem = z.object({
  id: z.string({ error: 'id must be a string' }).regex(QUESTION_ID_PATTERN, { error: 'id must be snake_case: ^[a-z][a-z0-9_]*$' }),
  header: z
    .string({ error: 'header must be a string' })
    .transform((s) => cutCodePoints(s.trim(), HEADER_MAX))
    .pipe(z.string().min(1, { error: 'header must not be blank' })),
  question: trimmed(1, QUESTION_TEXT_MAX, 'question'),
  options: z
    .array(QuestionOption, { error: 'options must be an array' })
    .min(2, { error: 'options must have 2 to 4 entries' })
    .max(4, { error: 'options must have 2 to 4 entries' }),
  multiSelect: z
    .boolean({ error: 'multiSelect must be a boolean' })
    .optional()
    .transform((v) => (v === true ? true : undefined)),
});
export type QuestionItem = z.infer<typeof QuestionItem>;
export type QuestionItemInput = z.input<typeof QuestionItem>;

export type ListProblem = { path: (string | number)[]; message: string };

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The cross-field rules of a question list (Q2, T1): ids unique, labels unique per question (case-insensitive, trimmed),
 * no authored Other. Reads raw input too, skipping what is malformed, so a caller can report these beside the
 * per-field faults in one answer; paths are relative to the list.
 */
export function questionListProblems(items: readonly unknown[]): ListProblem[] {
  const problems: ListProblem[] = [];
  const seenIds = new Set<string>();
  items.forEach((item, qi) => {
    if (!isRecord(item)) return;
    if (typeof item.id === 'string') {
      if (seenIds.has(item.id)) problems.push({ path: [qi, 'id'], message: `id "${item.id}" is used twice` });
      seenIds.add(item.id);
    }
    if (!Array.isArray(item.options)) return;
    const seenLabels = new Set<string>();
    item.options.forEach((option: unknown, oi) => {
      if (!isRecord(option) || typeof option.label !== 'string') return;
      const label = option.label.trim();
      const path = [qi, 'options', oi, 'label'];
      if (label && seenLabels.has(label.toLowerCase())) problems.push({ path, message: `label "${label}" is used twice` });
      seenLabels.add(label.toLowerCase());
      if (isAuthoredOther(label)) problems.push({ path, message: 'must not be an authored "Other" option: free text is always allowed' });
    });
  });
  return problems;
}

/** 1..3 questions with unique ids, unique labels (case-insensitive) and no authored Other (Q2, T1). */
export const QuestionList = z
  .array(QuestionItem, { error: 'questions must be an array' })
  .min(1, { error: 'questions must have 1 to 3 entries' })
  .max(3, { error: 'questions must have 1 to 3 entries' })
  .superRefine((items, ctx) => {
    for (const { path, message } of questionListProblems(items)) ctx.addIssue({ code: 'custom', path, message });
  });

export const QuestionMode = z.enum(['blocking', 'async']);
export type QuestionMode = z.infer<typeof QuestionMode>;
export const QuestionStatus = z.enum(['pending', 'answered', 'skipped', 'expired', 'cancelled']);
export type QuestionStatus = z.infer<typeof QuestionStatus>;
export const TerminalStatus = z.enum(['answered', 'skipped', 'expired', 'cancelled']);

/** Flat answers: `{[questionId]: string[]}`. */
export const Answers = z.record(z.string(), z.array(z.string()));
export type Answers = z.infer<typeof Answers>;

export const Surface = z.string().regex(/^(control-ui|tui|cli|plain-text|link|sdk|channel:[a-z0-9_-]+)$/, {
  error: 'surface must be control-ui, tui, cli, plain-text, link, sdk or channel:<name>',
});
export const ResolvedBy = z.object({ identity: z.string(), surface: z.string(), atMs: z.number() });
export type ResolvedBy = z.infer<typeof ResolvedBy>;

/** A stored question as every client sees it (Q1). Items are already normalised. */
export const QuestionRecord = z.object({
  id: z.string(),
  sessionKey: z.string().optional(),
  runId: z.string().optional(),
  askedBy: z.string(),
  mode: QuestionMode,
  privileged: z.boolean().optional(),
  questions: z.array(
    z.object({
      id: z.string(),
      header: z.string(),
      question: z.string(),
      options: z.array(z.object({ label: z.string(), description: z.string().optional() })),
      multiSelect: z.boolean().optional(),
    }),
  ),
  createdAtMs: z.number(),
  expiresAtMs: z.number().nullable(),
  status: QuestionStatus,
  answers: Answers.optional(),
  resolvedBy: ResolvedBy.optional(),
  reason: z.string().optional(),
  retiredAtMs: z.number().optional(),
  replyMessageId: z.string().optional(),
});
export type QuestionRecord = z.infer<typeof QuestionRecord>;

/** Q3: default 900 s, clamped to 30 s..3600 s. */
export function clampTimeoutMs(timeoutMs: number | undefined): number {
  if (timeoutMs === undefined) return DEFAULT_TIMEOUT_MS;
  return Math.min(MAX_TIMEOUT_MS, Math.max(MIN_TIMEOUT_MS, Math.round(timeoutMs)));
}

export type AnswerProblem = { questionId: string; problem: string };

/**
 * Q5: checks answers against the record and returns them normalised:
 * trimmed, option labels in their authored spelling, free text kept as typed.
 */
export function normaliseAnswers(
  items: QuestionRecord['questions'],
  answers: Answers,
): { ok: true; answers: Answers } | { ok: false; problems: AnswerProblem[] } {
  const problems: AnswerProblem[] = [];
  const out: Answers = {};
  const known = new Set(items.map((q) => q.id));
  for (const key of Object.keys(answers)) {
    if (!known.has(key)) problems.push({ questionId: key, problem: 'is not a question of this prompt' });
  }
  for (const item of items) {
    const raw = answers[item.id];
    if (!raw || raw.length === 0) {
      problems.push({ questionId: item.id, problem: 'needs an answer' });
      continue;
    }
    const values = raw.map((v) => (typeof v === 'string' ? v.trim() : ''));
    if (values.some((v) => v.length === 0)) {
      problems.push({ questionId: item.id, problem: 'has a blank answer' });
      continue;
    }
    if (values.some((v) => v.length > ANSWER_MAX)) {
      problems.push({ questionId: item.id, problem: `answers must be at most ${ANSWER_MAX} characters` });
      continue;
    }
    if (!item.multiSelect && values.length > 1) {
      problems.push({ questionId: item.id, problem: 'is single-select and takes one value' });
      continue;
    }
    const labelled = values.map((v) => item.options.find((o) => o.label.toLowerCase() === v.toLowerCase())?.label ?? v);
    out[item.id] = Array.from(new Set(labelled));
  }
  return problems.length ? { ok: false, problems } : { ok: true, answers: out };
}
