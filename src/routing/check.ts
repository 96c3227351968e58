/** Small helpers for the routing validator: every fault is collected with its path, none stops the others being found. */
import type { RoutingProblem } from './types.ts';

export class Problems {
  readonly list: RoutingProblem[] = [];
  add(path: string, problem: string): void {
    this.list.push({ path, problem });
  }
}

/** `routing.groups.ops`, or `routing.groups["on call"]` for a key that is not a plain word. */
export function child(path: string, key: string | number): string {
  if (typeof key === 'number') return `${path}[${key}]`;
  return /^[A-Za-z_][\w-]*$/.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The value as an object, or undefined after recording why not; unknown keys are faults (a typo would silently do nothing). */
export function record(p: Problems, path: string, value: unknown, known: readonly string[]): Record<string, unknown> | undefined {
  if (!isRecord(value)) {
    p.add(path, 'must be an object');
    return undefined;
  }
  for (const key of Object.keys(value)) if (!known.includes(key)) p.add(child(path, key), `unknown field (known: ${known.join(', ')})`);
  return value;
}

/** Names of groups, schedules and escalations: what a target (`group:<name>`) can spell. */
export const NAME = /^[A-Za-z0-9_.-]+$/;

export function names(p: Problems, path: string, value: unknown): [string, unknown][] {
  if (value === undefined) return [];
  if (!isRecord(value)) {
    p.add(path, 'must be an object of names');
    return [];
  }
  const entries = Object.entries(value);
  const good = (name: string) => NAME.test(name) && name !== '__proto__';
  for (const [name] of entries) if (!good(name)) p.add(child(path, name), 'a name uses letters, digits, "_", "." and "-" only (and is not "__proto__")');
  return entries.filter(([name]) => good(name));
}

/** A list of identity ids, each one the config's identities know. */
export function members(p: Problems, path: string, value: unknown, identities: ReadonlySet<string>): string[] {
  if (!Array.isArray(value) || value.length === 0) {
    p.add(path, 'must list at least one identity id');
    return [];
  }
  const out: string[] = [];
  value.forEach((m, i) => {
    if (typeof m !== 'string' || !identities.has(m)) p.add(child(path, i), `${JSON.stringify(m)} is not the id of an identity in the config`);
    else if (out.includes(m)) p.add(child(path, i), `"${m}" is listed twice`);
    else out.push(m);
  });
  return out;
}

export function optionalString(p: Problems, path: string, value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value === '') p.add(path, 'must be a non-empty string');
  else return value;
  return undefined;
}
