/**
 * Small checks for what the Control UI reads back from its own storage and tab channels, so its first load needs
 * no schema library (the protocol's zod schemas come later, as their own chunk). Like zod's objects, `object` keeps
 * only the keys it names and leaves out optional ones that are absent.
 */
const FAIL: unique symbol = Symbol('does not fit');
export type Check<T> = (value: unknown) => T | typeof FAIL;
export type Checked<C> = C extends Check<infer T> ? T : never;

/** The value `check` makes of `value`, or null when it does not fit. */
export function read<T>(check: Check<T>, value: unknown): T | null {
  const out = check(value);
  return out === FAIL ? null : out;
}

export const fail = (): typeof FAIL => FAIL;

export const string =
  (min = 0, max = Infinity): Check<string> =>
  (v) =>
    typeof v === 'string' && v.length >= min && v.length <= max ? v : FAIL;
export const number: Check<number> = (v) => (typeof v === 'number' && Number.isFinite(v) ? v : FAIL);
export const count: Check<number> = (v) => (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 ? v : FAIL);
export const boolean: Check<boolean> = (v) => (typeof v === 'boolean' ? v : FAIL);
export const literal =
  <const L extends string | number | boolean>(value: L): Check<L> =>
  (v) =>
    v === value ? value : FAIL;
export const oneOf =
  <const L extends readonly string[]>(values: L): Check<L[number]> =>
  (v) =>
    typeof v === 'string' && values.includes(v) ? v : FAIL;

export const optional =
  <T>(check: Check<T>): Check<T | undefined> =>
  (v) =>
    v === undefined ? undefined : check(v);
export const nullable =
  <T>(check: Check<T>): Check<T | null> =>
  (v) =>
    v === null ? null : check(v);

export function union<T extends readonly Check<unknown>[]>(...checks: T): Check<Checked<T[number]>> {
  return (v) => {
    for (const check of checks) {
      const out = check(v);
      if (out !== FAIL) return out as Checked<T[number]>;
    }
    return FAIL;
  };
}

const isPlain = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export const array =
  <T>(check: Check<T>): Check<T[]> =>
  (v) => {
    if (!Array.isArray(v)) return FAIL;
    const out: T[] = [];
    for (const item of v) {
      const c = check(item);
      if (c === FAIL) return FAIL;
      out.push(c);
    }
    return out;
  };

export const record =
  <T>(check: Check<T>): Check<Record<string, T>> =>
  (v) => {
    if (!isPlain(v)) return FAIL;
    const out: Record<string, T> = {};
    for (const key of Object.keys(v)) {
      const c = check(v[key]);
      if (c === FAIL) return FAIL;
      out[key] = c;
    }
    return out;
  };

type Shape = Record<string, Check<unknown>>;
type OptionalKeys<S extends Shape> = { [K in keyof S]: undefined extends Checked<S[K]> ? K : never }[keyof S];
type Flat<T> = { [K in keyof T]: T[K] };
export type ObjectOf<S extends Shape> = Flat<
  { [K in Exclude<keyof S, OptionalKeys<S>>]: Checked<S[K]> } & { [K in OptionalKeys<S>]?: Exclude<Checked<S[K]>, undefined> }
>;

export const object =
  <S extends Shape>(shape: S): Check<ObjectOf<S>> =>
  (v) => {
    if (!isPlain(v)) return FAIL;
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(shape)) {
      const c = shape[key](v[key]);
      if (c === FAIL) return FAIL;
      if (c !== undefined) out[key] = c;
    }
    return out as ObjectOf<S>;
  };
