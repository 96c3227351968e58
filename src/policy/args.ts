/** G1: the `args` matcher on an MCP or SDK tool's JSON input ($eq, $in, $lt, $lte, $gt, $gte, $regex). */
import safeRegex from 'safe-regex2';
import type { ArgCondition, PolicyProblem } from './types.ts';

const OPS = ['$eq', '$in', '$lt', '$lte', '$gt', '$gte', '$regex'] as const;
const PATH = /^[A-Za-z0-9_$-]+(\.[A-Za-z0-9_$-]+)*$/;

export type CompiledArgs = { key: string; cond: ArgCondition; regex?: RegExp }[];

/** Checks an `args` block; returns the compiled matcher or the problems, each naming its place. */
export function compileArgs(args: unknown, where: string): { ok: true; args: CompiledArgs } | { ok: false; problems: PolicyProblem[] } {
  const problems: PolicyProblem[] = [];
  if (typeof args !== 'object' || args === null || Array.isArray(args)) {
    return { ok: false, problems: [{ path: where, problem: 'args must be an object of {key: {$eq|$in|$lt|$lte|$gt|$gte|$regex: ...}}' }] };
  }
  const out: CompiledArgs = [];
  for (const [key, cond] of Object.entries(args)) {
    const at = `${where}.${key}`;
    if (!PATH.test(key)) problems.push({ path: at, problem: `"${key}" is not an input key or a dotted path (a.b.c)` });
    if (typeof cond !== 'object' || cond === null || Array.isArray(cond) || Object.keys(cond).length === 0) {
      problems.push({ path: at, problem: 'a condition must be an object with at least one of $eq, $in, $lt, $lte, $gt, $gte, $regex' });
      continue;
    }
    const c = cond as Record<string, unknown>;
    let regex: RegExp | undefined;
    for (const op of Object.keys(c)) {
      const v = c[op];
      if (!(OPS as readonly string[]).includes(op)) problems.push({ path: `${at}.${op}`, problem: `unknown operator "${op}" (use ${OPS.join(', ')})` });
      else if (op === '$in' && !Array.isArray(v)) problems.push({ path: `${at}.$in`, problem: '$in must be an array' });
      else if (['$lt', '$lte', '$gt', '$gte'].includes(op) && (typeof v !== 'number' || !Number.isFinite(v))) {
        problems.push({ path: `${at}.${op}`, problem: `${op} must be a finite number` });
      } else if (op === '$regex') {
        const r = checkRegex(v);
        if (typeof r === 'string') problems.push({ path: `${at}.$regex`, problem: r });
        else regex = r;
      }
    }
    out.push({ key, cond: c as ArgCondition, regex });
  }
  return problems.length ? { ok: false, problems } : { ok: true, args: out };
}

function checkRegex(v: unknown): RegExp | string {
  if (typeof v !== 'string') return '$regex must be a string';
  let re: RegExp;
  try {
    re = new RegExp(v);
  } catch (err) {
    return `$regex does not compile: ${(err as Error).message}`;
  }
  // A pattern that could backtrack without bound (star height > 1) is refused at load (G1).
  if (!safeRegex(re)) return `$regex "${v}" could backtrack without bound (nested repetition); rewrite it without a repeated group that repeats`;
  return re;
}

function lookup(input: Record<string, unknown>, key: string): unknown {
  if (Object.hasOwn(input, key)) return input[key];
  let at: unknown = input;
  for (const seg of key.split('.')) {
    if (typeof at !== 'object' || at === null || !Object.hasOwn(at, seg)) return undefined;
    at = (at as Record<string, unknown>)[seg];
  }
  return at;
}

function same(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  return JSON.stringify(a) === JSON.stringify(b);
}

/** Every condition must hold; a comparison on a value of the wrong type does not hold. */
export function argsMatch(args: CompiledArgs, input: Record<string, unknown>): boolean {
  return args.every(({ key, cond, regex }) => {
    const v = lookup(input, key);
    if ('$eq' in cond && !same(v, cond.$eq)) return false;
    if (cond.$in && !cond.$in.some((x) => same(v, x))) return false;
    const num = typeof v === 'number';
    if (cond.$lt !== undefined && !(num && v < cond.$lt)) return false;
    if (cond.$lte !== undefined && !(num && v <= cond.$lte)) return false;
    if (cond.$gt !== undefined && !(num && v > cond.$gt)) return false;
    if (cond.$gte !== undefined && !(num && v >= cond.$gte)) return false;
    if (regex && !(typeof v === 'string' && regex.test(v))) return false;
    return true;
  });
}
