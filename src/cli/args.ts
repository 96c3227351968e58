/** Small helpers the `askdock` commands share for flags and their errors. */
import { AskdockError } from '../protocol/index.ts';

/** Exit codes of agent-side commands (`askdock ask` documents them). */
export const EXIT = { answered: 0, failure: 1, usage: 2, skipped: 3, expired: 4, cancelled: 5 } as const;

/** Prints each bad-argument problem (one a line, naming the flag and rule), then the usage line; returns exit code 2. */
export function usageError(command: string, err: unknown, usage: string): number {
  const message = err instanceof Error ? err.message : String(err);
  const lines = message.split('\n').map((line) => `askdock ${command}: ${line}\n`);
  process.stderr.write(`${lines.join('')}${usage}\n`);
  return EXIT.usage;
}

/** Prints a runtime failure (gateway unreachable, refused token); returns exit code 1. */
export function failure(command: string, err: unknown): number {
  const message = err instanceof AskdockError ? `${err.message} (${err.code})` : err instanceof Error ? err.message : String(err);
  process.stderr.write(`askdock ${command}: ${message}\n`);
  return EXIT.failure;
}

/** Parses a whole non-negative number flag, or throws naming the flag and the rule. */
export function intFlag(flag: string, value: string | undefined, rule: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value.trim())) throw new Error(`${flag}: must be ${rule}, got "${value}"`);
  return Number(value.trim());
}
