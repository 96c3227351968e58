/**
 * X5/Q12: an MCP elicitation's form fields as askdock questions of the kind that fits, and each answer read back typed
 * from that kind (STYLE.md "Question kinds"): a typed field is an `input` the gateway checks, a required yes/no a
 * `confirm`, a short required list a `choice`. A number comes back as a number and a boolean as a boolean; nothing is
 * read back from a label the agent made up.
 */
import { severalField } from '../answers/kinds/choice.ts';
import { ANSWER_MAX, CONFIRM_LABELS, cutCodePoints, cutHeader, DESCRIPTION_MAX, LABEL_MAX, QUESTION_TEXT_MAX, type InputSpec, type QuestionItemInput } from '../protocol/index.ts';

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

export type FieldValue = string | number | boolean | string[];
type Choice = { label: string; value: string | number | boolean };
export type Field = { key: string; id: string; prop: SchemaProperty; required: boolean; choices: Choice[] | null };

const RECOMMENDED = ' (Recommended)';
/** An optional several-choice field's way to send nothing (a choice question has no empty answer of its own). */
export const LEAVE_EMPTY = 'Leave empty';

const asLabel = (s: string) => cutCodePoints(s.trim() || '(empty)', LABEL_MAX);

/** Labels unique in any case (Q2), the later of two equal ones numbered. */
function uniqueLabels(choices: Choice[]): Choice[] {
  const seen = new Set<string>();
  return choices.map((c) => {
    let label = c.label;
    for (let n = 2; seen.has(label.toLowerCase()); n++) label = cutCodePoints(c.label, LABEL_MAX - 4) + ` (${n})`;
    seen.add(label.toLowerCase());
    return { ...c, label };
  });
}

/** The field's fixed choices: enum, oneOf/anyOf of consts, an array's item enum. */
function choicesOf(p: SchemaProperty): Choice[] | null {
  const consts = (list?: { const?: unknown; title?: string }[]) =>
    list?.every((o) => o && o.const !== undefined) ? list.map((o) => ({ label: asLabel(String(o.title ?? o.const)), value: o.const as string })) : null;
  const found =
    p.type === 'array'
      ? p.items?.enum
        ? p.items.enum.map((v) => ({ label: asLabel(String(v)), value: v as string }))
        : consts(p.items?.anyOf)
      : Array.isArray(p.enum)
        ? p.enum.map((v, i) => ({ label: asLabel(String(p.enumNames?.[i] ?? v)), value: v as string }))
        : (consts(p.oneOf) ?? consts(p.anyOf));
  return found ? uniqueLabels(found) : null;
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

/** The schema's properties in order, each with its question id and choices. */
export function schemaFields(schema: RequestedSchema): Field[] {
  const taken = new Set<string>();
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties ?? {}).map(([key, prop]) => ({ key, id: idFor(key, taken), prop, required: required.has(key), choices: choicesOf(prop) }));
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

/** How a field is asked: the kind, and what reading its answer needs. */
export type FieldPlan =
  | { kind: 'choice'; choices: Choice[]; multi: boolean }
  | { kind: 'confirm' }
  | { kind: 'input'; spec: InputSpec; choices?: Choice[]; list?: true };

const FORMATS = ['email', 'uri', 'date', 'date-time'] as const;

/** The default as the spec's type takes it, or nothing when it does not fit. */
function defaultFor(spec: InputSpec, value: unknown): InputSpec['default'] {
  if (spec.type === 'number' || spec.type === 'integer') return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
  if (spec.type === 'boolean') return typeof value === 'boolean' ? value : undefined;
  return typeof value === 'string' && value.length <= ANSWER_MAX ? value : undefined;
}

/** Q12: the input spec of a typed field, in the words the gateway checks (inclusive bounds). */
function inputSpecOf(f: Field): InputSpec {
  const p = f.prop;
  const type: InputSpec['type'] =
    p.type === 'number' || p.type === 'integer' || p.type === 'boolean' ? p.type : (FORMATS.find((x) => x === p.format) ?? 'string');
  const spec: InputSpec = { type };
  if (type === 'number' || type === 'integer') {
    // An exclusive bound is the next whole number for an integer; for a number the gateway holds the bound itself and
    // only the bound's own value is left to the agent's check (asked again).
    const { low, high } = numberBounds(p);
    const integer = type === 'integer';
    if (low) spec.minimum = low.exclusive && integer ? Math.floor(low.value) + 1 : low.value;
    if (high) spec.maximum = high.exclusive && integer ? Math.ceil(high.value) - 1 : high.value;
    if (spec.minimum !== undefined && spec.maximum !== undefined && spec.minimum > spec.maximum) delete spec.maximum;
  } else if (type !== 'boolean') {
    if (Number.isInteger(p.minLength) && p.minLength! >= 0) spec.minLength = p.minLength;
    if (Number.isInteger(p.maxLength) && p.maxLength! >= Math.max(1, spec.minLength ?? 0)) spec.maxLength = p.maxLength;
  }
  const def = defaultFor(spec, p.default);
  if (def !== undefined) spec.default = def;
  if (!f.required) spec.required = false;
  return spec;
}

/** Q12: which kind asks `f`: a short required list a choice, a required yes/no a confirm, every other field a typed input. */
export function planField(f: Field): FieldPlan {
  const p = f.prop;
  const choices = f.choices;
  if (p.type === 'array') {
    if (choices && choices.length >= 2) return { kind: 'choice', choices, multi: true };
    return { kind: 'input', spec: { type: 'string', ...(f.required ? {} : { required: false }) }, list: true };
  }
  if (p.type === 'boolean') return f.required && p.default === undefined ? { kind: 'confirm' } : { kind: 'input', spec: inputSpecOf(f) };
  if (choices && choices.length >= 2 && choices.length <= 4 && f.required) return { kind: 'choice', choices, multi: false };
  if (choices && choices.length >= 1 && choices.length <= 100) {
    const def = choices.find((c) => c.value === p.default)?.label;
    return { kind: 'input', spec: { type: 'string', enum: choices.map((c) => c.label), ...(def ? { default: def } : {}), ...(f.required ? {} : { required: false }) }, choices };
  }
  return { kind: 'input', spec: inputSpecOf(f) };
}

/** What the field expects, for the question's detail and a refusal. */
export function ruleText(f: Field): string {
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
  const def = f.choices?.find((c) => c.value === p.default)?.label ?? (['string', 'number', 'boolean'].includes(typeof p.default) ? String(p.default) : undefined);
  if (def !== undefined && def !== '') parts.push(`suggested: ${def}`);
  parts.push(f.required ? 'required' : 'optional');
  return parts.join(', ');
}

/** X5/Q12: one field as a question of its kind: title the header, description the question, the default first or preset. */
export function fieldQuestion(f: Field): QuestionItemInput {
  const p = f.prop;
  const plan = planField(f);
  const base = {
    id: f.id,
    header: cutHeader((p.title ?? f.key).trim() || f.key),
    question: cutCodePoints((p.description ?? p.title ?? f.key).trim() || f.key, QUESTION_TEXT_MAX),
    detail: `Expects: ${ruleText(f)}`,
  };
  if (plan.kind === 'confirm') return { ...base, kind: 'confirm' };
  if (plan.kind === 'input') return { ...base, kind: 'input', input: plan.spec };
  let options: { label: string; description?: string }[] = plan.choices.slice(0, 4).map((c) => ({ label: c.label }));
  const def = plan.choices.find((c) => c.value === p.default);
  if (def && !plan.multi) {
    const i = options.findIndex((o) => o.label === def.label);
    if (i >= 0) options = [{ label: asLabel(def.label + RECOMMENDED), description: 'The default' }, ...options.filter((_, j) => j !== i)];
  }
  if (plan.multi && !f.required && options.length < 4) options.push({ label: LEAVE_EMPTY, description: cutCodePoints('Send no value for this field', DESCRIPTION_MAX) });
  return { ...base, options, ...severalField(plan.multi) };
}

export type FieldRead = { value: FieldValue } | { empty: true } | { problem: string };

/** The choice named by `text`: its label (with or without the default's mark) or its value, in any case. */
function choiceNamed(choices: Choice[], text: string): Choice | undefined {
  const t = (text.endsWith(RECOMMENDED) ? text.slice(0, -RECOMMENDED.length) : text).trim().toLowerCase();
  return choices.find((c) => c.label.toLowerCase() === t) ?? choices.find((c) => String(c.value).toLowerCase() === t);
}

const notOneOf = (text: string, choices: Choice[]) => ({ problem: `"${text}" is not one of: ${choices.map((c) => c.label).join(', ')}` });

/** The bounds the gateway was not given (an exclusive one on a number), checked here. */
function boundProblem(p: SchemaProperty, n: number): string | undefined {
  const { low, high } = numberBounds(p);
  if (low && (low.exclusive ? n <= low.value : n < low.value)) return low.exclusive ? `${n} is not more than ${low.value}` : `${n} is less than ${low.value}`;
  if (high && (high.exclusive ? n >= high.value : n > high.value)) return high.exclusive ? `${n} is not less than ${high.value}` : `${n} is more than ${high.value}`;
  return undefined;
}

/** An input's value (as the gateway normalised it) in its type: a number, a boolean, an enum's own value, a list. */
function readInput(f: Field, plan: Extract<FieldPlan, { kind: 'input' }>, text: string): FieldRead {
  if (plan.list) return { value: text.split(',').map((s) => s.trim()).filter(Boolean) };
  // A list too long for the gateway's enum is checked here.
  const choices = plan.choices ?? f.choices;
  if (choices) {
    const c = choiceNamed(choices, text);
    return c ? { value: c.value } : notOneOf(text, choices);
  }
  switch (plan.spec.type) {
    case 'number':
    case 'integer': {
      const n = Number(text);
      if (!Number.isFinite(n) || (plan.spec.type === 'integer' && !Number.isInteger(n))) return { problem: `"${text}" is not ${plan.spec.type === 'integer' ? 'a whole number' : 'a number'}` };
      const problem = boundProblem(f.prop, n);
      return problem ? { problem } : { value: n };
    }
    case 'boolean':
      return text === 'true' ? { value: true } : text === 'false' ? { value: false } : { problem: `"${text}" is not yes or no` };
    default:
      return { value: text };
  }
}

/** X5/Q12: one field's answer values read by the kind it was asked as; an optional field left out is empty. */
export function readField(f: Field, values: readonly string[] | undefined): FieldRead {
  const plan = planField(f);
  const clean = (values ?? []).map((v) => v.trim()).filter(Boolean);
  if (clean.length === 0 || (plan.kind === 'choice' && plan.multi && clean.length === 1 && clean[0] === LEAVE_EMPTY)) {
    return f.required ? { problem: `${f.prop.title ?? f.key} is required` } : { empty: true };
  }
  if (plan.kind === 'confirm') return clean[0] === CONFIRM_LABELS[0] ? { value: true } : clean[0] === CONFIRM_LABELS[1] ? { value: false } : { problem: `"${clean[0]}" is not Yes or No` };
  if (plan.kind === 'input') return readInput(f, plan, clean[0]);
  if (!plan.multi) {
    const c = choiceNamed(plan.choices, clean[0]);
    return c ? { value: c.value } : notOneOf(clean[0], plan.choices);
  }
  // Several: the chosen labels, and free text naming more of them between commas.
  const parts = clean.flatMap((v) => (choiceNamed(plan.choices, v) ? [v] : v.split(',').map((s) => s.trim()).filter(Boolean)));
  const picked = parts.map((v) => choiceNamed(plan.choices, v));
  const missing = picked.findIndex((c) => !c);
  if (missing >= 0) return notOneOf(parts[missing], plan.choices);
  const p = f.prop;
  if (p.minItems !== undefined && picked.length < p.minItems) return { problem: `choose at least ${p.minItems}` };
  if (p.maxItems !== undefined && picked.length > p.maxItems) return { problem: `choose at most ${p.maxItems}` };
  return { value: picked.map((c) => String(c!.value)) };
}
