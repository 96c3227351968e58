/** Small helpers the `askdock` commands share for flags and their errors. */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { AskdockError } from '../protocol/askdock-error.ts';
import { terminalText } from '../lib/terminal-text.ts';

/** Exit codes of agent-side commands (`askdock ask` documents them). */
export const EXIT = { answered: 0, failure: 1, usage: 2, skipped: 3, expired: 4, cancelled: 5 } as const;

/** Prints each bad-argument problem (one a line, naming the flag and rule), then the usage line; returns exit code 2. */
export function usageError(command: string, err: unknown, usage: string): number {
  const message = err instanceof Error ? err.message : String(err);
  const lines = terminalText(message).split('\n').map((line) => `askdock ${command}: ${line}\n`);
  process.stderr.write(`${lines.join('')}${usage}\n`);
  return EXIT.usage;
}

/** Prints a runtime failure (gateway unreachable, refused token); returns exit code 1. */
export function failure(command: string, err: unknown): number {
  const message = err instanceof AskdockError ? `${err.message} (${err.code})` : err instanceof Error ? err.message : String(err);
  // A gateway's or a server's message may quote what it was sent.
  process.stderr.write(`askdock ${command}: ${terminalText(message)}\n`);
  return EXIT.failure;
}

/** Parses a whole non-negative number flag, or throws naming the flag and the rule. */
export function intFlag(flag: string, value: string | undefined, rule: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value.trim())) throw new Error(`${flag}: must be ${rule}, got "${value}"`);
  return Number(value.trim());
}

/** The flags of every command that talks to a gateway as a client. */
const CLIENT_FLAGS = {
  url: { type: 'string' },
  token: { type: 'string' },
  session: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** A client command's flags: the common ones, and whatever `extra` flags it takes. */
export type ClientFlags = { url?: string; token?: string; session?: string; help?: boolean; [flag: string]: string | boolean | undefined };

/**
 * Parses a client command's flags (--url, --token, --session, -h, and `extra`). Returns them, or the exit code to
 * end with: 2 after naming a bad flag, 0 after writing the usage to `helpTo` for -h.
 */
export function clientFlags(
  command: string,
  argv: string[],
  usage: string,
  extra: NonNullable<ParseArgsConfig['options']> = {},
  helpTo: NodeJS.WritableStream = process.stdout,
): ClientFlags | number {
  let values: ClientFlags;
  try {
    ({ values } = parseArgs({ args: argv, options: { ...CLIENT_FLAGS, ...extra }, strict: true }) as { values: ClientFlags });
  } catch (err) {
    return usageError(command, err, usage);
  }
  if (values.help) {
    helpTo.write(usage + '\n');
    return 0;
  }
  return values;
}
