/**
 * The check of what the gateway builds itself (an entry, a receipt's payload) before it is stored or signed: every field
 * a listed one, every value of its field's kind, required fields present. The same verdicts as the entry's and the
 * receipt's zod schemas for these shapes, in one pass over the fields (a schema parse costs some 20 times as much).
 */
export type FieldKind =
  | 'one'
  | 'text'
  | 'count'
  | 'digest'
  | 'texts'
  | 'detail'
  | readonly string[]
  | { readonly fields: FieldKinds; readonly required: readonly string[] };
export type FieldKinds = Readonly<Record<string, FieldKind>>;

const DIGEST = /^[A-Za-z0-9_-]{43}$/;
const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && (Object.getPrototypeOf(v) === Object.prototype || Object.getPrototypeOf(v) === null);

function isTexts(value: unknown): boolean {
  if (!Array.isArray(value)) return false;
  for (const item of value) if (typeof item !== 'string' || item === '') return false;
  return true;
}

/** The first field of a `detail` object whose value is not a string, a finite number or a boolean ('' for not an object). */
function badDetail(value: unknown): string | undefined {
  if (!isPlainObject(value)) return '';
  for (const key of Object.keys(value)) {
    const v = value[key];
    if (typeof v !== 'string' && typeof v !== 'boolean' && !(typeof v === 'number' && Number.isFinite(v))) return key;
  }
  return undefined;
}

/** A shape ready for checking: its fields in a Map (one lookup per field, whatever the object's hidden class). */
export type BuiltShape = { readonly kinds: ReadonlyMap<string, Kind>; readonly required: readonly string[] };
type Kind = Exclude<FieldKind, { fields: FieldKinds }> | BuiltShape;

export function builtShape(fields: FieldKinds, required: readonly string[]): BuiltShape {
  const kinds = new Map<string, Kind>();
  for (const [key, kind] of Object.entries(fields)) {
    const nested = typeof kind === 'object' && !Array.isArray(kind) ? (kind as { fields: FieldKinds; required: readonly string[] }) : undefined;
    kinds.set(key, nested ? builtShape(nested.fields, nested.required) : (kind as Kind));
  }
  return { kinds, required };
}

/**
 * What is wrong with `value` as a `kind`: [where below the field ('' for the field itself), what], or undefined when
 * nothing is. No closures and no strings built unless something is wrong: this runs for every field of every entry.
 */
function problemOf(kind: Kind, value: unknown): [string, string] | undefined {
  switch (kind) {
    case 'one':
      return value === 1 ? undefined : ['', 'must be 1'];
    case 'text':
      return typeof value === 'string' && value !== '' ? undefined : ['', 'must be a non-empty string'];
    case 'count':
      return Number.isSafeInteger(value) && (value as number) >= 0 ? undefined : ['', 'must be a non-negative integer'];
    case 'digest':
      return typeof value === 'string' && DIGEST.test(value) ? undefined : ['', 'must be a base64url SHA-256 digest'];
    case 'texts':
      return isTexts(value) ? undefined : ['', 'must be a list of non-empty strings'];
    case 'detail': {
      const bad = badDetail(value);
      if (bad === undefined) return undefined;
      return bad === '' ? ['', 'must be an object'] : [`.${bad}`, 'must be a string, a number or a boolean'];
    }
    default: {
      if (Array.isArray(kind)) return kind.includes(value as string) ? undefined : ['', `must be one of ${kind.join(', ')}`];
      if (!isPlainObject(value)) return ['', 'must be an object'];
      const problem = shapeProblem(kind as BuiltShape, value);
      return problem && [`.${problem.unlisted ? '' : problem.path}`, problem.problem];
    }
  }
}

type ShapeProblem = { unlisted: string[] | undefined; path: string; problem: string };

/** One pass over `value`'s fields: those not listed (nested ones by path), else the first wrong value or missing field. */
function shapeProblem(shape: BuiltShape, value: Record<string, unknown>): ShapeProblem | undefined {
  let unlisted: string[] | undefined;
  let first: ShapeProblem | undefined;
  for (const key of Object.keys(value)) {
    const kind = shape.kinds.get(key);
    if (kind === undefined) {
      (unlisted ??= []).push(key);
      continue;
    }
    const item = value[key];
    if (item === undefined || first !== undefined) continue;
    const problem = problemOf(kind, item);
    if (problem === undefined) continue;
    // A nested object's unlisted fields count as unlisted here (by path); its other problems as this field's.
    const nested = typeof kind === 'object' && !Array.isArray(kind) && isPlainObject(item) ? shapeProblem(kind as BuiltShape, item) : undefined;
    if (nested?.unlisted) for (const inner of nested.unlisted) (unlisted ??= []).push(`${key}.${inner}`);
    else first = { unlisted: undefined, path: key + problem[0], problem: problem[1] };
  }
  if (unlisted) return { unlisted, path: '$', problem: '' };
  if (first) return first;
  for (const key of shape.required) if (value[key] === undefined) return { unlisted: undefined, path: key, problem: 'is required' };
  return undefined;
}

/**
 * Throws `fail(message)` for the fields not listed (all of them named: "<name> $: fields not listed in <listedIn>
 * (a, b)"), then for the first value not of its kind or a required field missing ("<name> <field>: must be ...").
 */
export function checkBuilt(what: { name: string; listedIn: string }, shape: BuiltShape, value: object, fail: (message: string) => Error): void {
  const problem = shapeProblem(shape, value as Record<string, unknown>);
  if (problem === undefined) return;
  if (problem.unlisted) throw fail(`${what.name} $: fields not listed in ${what.listedIn} (${problem.unlisted.join(', ')})`);
  throw fail(`${what.name} ${problem.path}: ${problem.problem}`);
}
