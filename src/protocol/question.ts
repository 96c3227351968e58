import * as z from 'zod';
import { RouteState } from './routing.ts';
import { ANSWER_MAX, INPUT_TYPES, KIND_IDS, type InputSpec, DESCRIPTION_MAX, isLinkUrl, LABEL_MAX, QUESTION_ID_PATTERN, QUESTION_DETAIL_MAX, QUESTION_TEXT_MAX, QUESTION_URL_MAX } from './rules.ts';
import { cutHeader, itemKindProblems, OWN_LABELS, questionListProblems, type ListProblem } from './request-rules.ts';

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

/**
 * 2..4 options (Q2). Every option is checked whatever the count (a length check on the array would stop zod before
 * the items when there are too many), so one answer names every fault (T3): the options' own problems, then the count.
 */
const OptionList = z
  .array(z.unknown(), { error: 'options must be an array' })
  .transform((raw, ctx) => {
    let failed = false;
    const options: QuestionOption[] = [];
    raw.forEach((input, i) => {
      const parsed = QuestionOption.safeParse(input);
      if (parsed.success) options.push(parsed.data);
      else {
        failed = true;
        for (const issue of parsed.error.issues) ctx.addIssue({ code: 'custom', path: [i, ...(issue.path as (string | number)[])], message: issue.message, input });
      }
    });
    if (raw.length < 2 || raw.length > 4) {
      failed = true;
      ctx.addIssue({ code: 'custom', path: [], message: 'options must have 2 to 4 entries', input: raw });
    }
    return failed ? z.NEVER : options;
  }) as unknown as z.ZodType<QuestionOption[], z.input<typeof QuestionOption>[]>;

/** Q2/U16: a page where the person finishes a step before answering ("Open link"). */
export const QuestionUrl = z
  .string({ error: 'url must be a string' })
  .transform((s) => s.trim())
  .pipe(
    z
      .string()
      .max(QUESTION_URL_MAX, { error: `url must be at most ${QUESTION_URL_MAX} characters` })
      .refine(isLinkUrl, { error: 'url must be an http:// or https:// address' }),
  );

/**
 * Q2/X2: preformatted text shown beside the question, kept exactly as given (its whitespace is its meaning); a detail
 * that is only whitespace is treated as absent.
 */
export const QuestionDetail = z
  .string({ error: 'detail must be a string' })
  .max(QUESTION_DETAIL_MAX, { error: `detail must be at most ${QUESTION_DETAIL_MAX} characters` })
  .transform((s) => (s.trim() === '' ? undefined : s));

/** Q12: an `input` question's spec: its type and the rules its value keeps. */
const finite = (name: string) => z.number({ error: `input.${name} must be a finite number` }).refine(Number.isFinite, { error: `input.${name} must be a finite number` });
const count = (name: string, min: number) => z.number().int({ error: `input.${name} must be a whole number` }).min(min, { error: `input.${name} must be at least ${min}` });
export const InputSpecSchema = z.object({
  type: z.enum(INPUT_TYPES, { error: `input.type must be one of ${INPUT_TYPES.join(', ')}` }),
  minimum: finite('minimum').optional(),
  maximum: finite('maximum').optional(),
  minLength: count('minLength', 0).optional(),
  maxLength: count('maxLength', 1).optional(),
  enum: z.array(trimmed(1, LABEL_MAX, 'input.enum value'), { error: 'input.enum must be an array' }).min(1).max(100, { error: 'input.enum must have 1 to 100 values' }).optional(),
  default: z.union([z.string().max(ANSWER_MAX), z.number(), z.boolean()], { error: 'input.default must be a string, number or boolean' }).optional(),
  required: z.boolean({ error: 'input.required must be a boolean' }).optional(),
});

const ItemFields = z.object({
  id: z.string({ error: 'id must be a string' }).regex(QUESTION_ID_PATTERN, { error: 'id must be snake_case: ^[a-z][a-z0-9_]*$' }),
  header: z
    .string({ error: 'header must be a string' })
    .transform((s) => cutHeader(s.trim()))
    .pipe(z.string().min(1, { error: 'header must not be blank' })),
  question: trimmed(1, QUESTION_TEXT_MAX, 'question'),
  kind: z.enum(KIND_IDS, { error: `kind must be one of ${KIND_IDS.join(', ')}` }).optional(),
  options: OptionList.optional(),
  multiSelect: z
    .boolean({ error: 'multiSelect must be a boolean' })
    .optional()
    .transform((v) => (v === true ? true : undefined)),
  url: QuestionUrl.optional(),
  detail: QuestionDetail.optional(),
  input: InputSpecSchema.optional(),
});
/** The keys a question item may have (the plain-params fast path reads the same). */
export const QUESTION_ITEM_KEYS: readonly string[] = Object.keys(ItemFields.shape);

/** Q12: which fields each kind takes: options for choice and approval, none for the others; url for link; input for input. */
export const QuestionItem = ItemFields.superRefine((item, ctx) => {
  for (const p of itemKindProblems(item)) ctx.addIssue({ code: 'custom', path: p.path, message: p.message, input: item });
}).transform(({ options, ...item }) => {
  const own: QuestionOption[] = (item.kind ? (OWN_LABELS[item.kind] ?? []) : []).map((label) => ({ label }));
  return { ...item, options: options ?? own };
});
export type QuestionItem = z.infer<typeof QuestionItem>;
export type QuestionItemInput = z.input<typeof QuestionItem>;
/** A `choice` question as an asker writes it: the shape the ask_user tool and AskUserQuestion send. */
export type ChoiceItemInput = QuestionItemInput & { options: z.input<typeof QuestionOption>[] };

/**
 * 1..3 questions with unique ids, unique labels (case-insensitive) and no authored Other (Q2, T1). Every item is
 * checked whatever the count, and the list rules run beside the item rules, so one answer names every fault.
 */
export const QuestionList = z
  .array(z.unknown(), { error: 'questions must be an array' })
  .transform((raw, ctx) => {
    const problems: ListProblem[] = [];
    if (raw.length < 1 || raw.length > 3) problems.push({ path: [], message: 'questions must have 1 to 3 entries' });
    const items: QuestionItem[] = [];
    raw.forEach((input, qi) => {
      const parsed = QuestionItem.safeParse(input);
      if (parsed.success) {
        items.push(parsed.data);
        return;
      }
      const faults = parsed.error.issues.map((issue) => ({ path: [qi, ...(issue.path as (string | number)[])], message: issue.message }));
      // T3: a field fault stops zod before the kind rules; name what they find too, where nothing else was named.
      const named = new Set(faults.map((f) => String(f.path[1])));
      const more = itemKindProblems(input).filter((p) => !named.has(String(p.path[0])));
      problems.push(...faults, ...more.map((p) => ({ path: [qi, ...p.path], message: p.message })));
    });
    problems.push(...questionListProblems(raw));
    for (const p of problems) ctx.addIssue({ code: 'custom', path: p.path, message: p.message, input: raw });
    return problems.length ? z.NEVER : items;
  }) as unknown as z.ZodType<QuestionItem[], QuestionItemInput[]>;

export const QuestionMode = z.enum(['blocking', 'async']);
export type QuestionMode = z.infer<typeof QuestionMode>;
export const QuestionStatus = z.enum(['pending', 'answered', 'skipped', 'expired', 'cancelled']);
export type QuestionStatus = z.infer<typeof QuestionStatus>;
export const TerminalStatus = z.enum(['answered', 'skipped', 'expired', 'cancelled']);

/** Flat answers: `{[questionId]: string[]}`. */
export const Answers = z.record(z.string(), z.array(z.string()));
export type Answers = z.infer<typeof Answers>;

export const SURFACE_PATTERN = /^(control-ui|tui|cli|plain-text|link|sdk|push|hook|mcp-proxy|policy|channel:[a-z0-9_-]+)$/;
export const Surface = z.string().regex(SURFACE_PATTERN, {
  error: 'surface must be control-ui, tui, cli, plain-text, link, sdk, push, hook, mcp-proxy, policy or channel:<name>',
});
/** `name`: the person's display name (E7 "Answered by Ana"), absent for the policy and older records. */
export const ResolvedBy = z.object({ identity: z.string(), name: z.string().optional(), surface: z.string(), atMs: z.number() });
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
      url: z.string().optional(),
      detail: z.string().optional(),
      kind: z.enum(KIND_IDS).optional(),
      input: (InputSpecSchema satisfies z.ZodType<InputSpec, unknown>).optional(),
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
  /** E11: a routed question's escalation, who it waits for and who may answer. */
  route: RouteState.optional(),
  /** L4/L9: the decision's signed receipt, once decided (never while the log is unsigned, L8). */
  receipt: z.string().optional(),
});
export type QuestionRecord = z.infer<typeof QuestionRecord>;

