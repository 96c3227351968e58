import { pino, type Logger } from 'pino';
import { terminalJson, terminalLine, terminalText } from '../../lib/terminal-text.ts';

/**
 * The gateway's log: one JSON object per line (`level`, `time`, `msg`, and where they apply `connId`, `method`,
 * `code`, `err`). Whoever starts the gateway chooses where it goes and whether a person reads it (see `src/cli`).
 */
export type GatewayLog = Pick<Logger, 'info' | 'warn' | 'error' | 'debug' | 'child'>;

export type LogSink = { write(line: string): unknown };

export type LoggerOptions = {
  /** Where lines go; the gateway itself never writes to stdout, which belongs to the command that runs it. */
  sink?: LogSink;
  /** One readable line per entry, for a terminal. */
  pretty?: boolean;
  level?: 'debug' | 'info' | 'warn' | 'error' | 'silent';
};

const COLOURS: Record<string, string> = { debug: '\x1b[90m', info: '\x1b[36m', warn: '\x1b[33m', error: '\x1b[31m' };
const RESET = '\x1b[0m';

/** `12:03:04 INFO  request failed connId=c1 method=question.get code=UNAVAILABLE`, and the error's stack below. */
export function prettyLine(json: string, colour = true): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(json) as Record<string, unknown>;
  } catch {
    return json.endsWith('\n') ? json : `${json}\n`;
  }
  const { level, time, msg, err, ...fields } = entry;
  const clock = typeof time === 'string' ? time.slice(11, 19) : new Date(Number(time ?? Date.now())).toISOString().slice(11, 19);
  const name = String(level ?? 'info');
  const label = name.toUpperCase().padEnd(5);
  const tagged = colour ? `${COLOURS[name] ?? ''}${label}${RESET}` : label;
  const rest = Object.entries(fields)
    .map(([k, v]) => `${terminalLine(k)}=${typeof v === 'string' ? terminalLine(v) : terminalJson(v)}`)
    .join(' ');
  const stack = err && typeof err === 'object' ? terminalText(String((err as { stack?: unknown }).stack ?? (err as { message?: unknown }).message ?? '')) : '';
  // A message or field may hold what a client sent (an id, an Origin): nothing in it may act on the terminal.
  return `${clock} ${tagged} ${terminalLine(String(msg ?? ''))}${rest ? ` ${rest}` : ''}${stack ? `\n  ${stack.replace(/\n/g, '\n  ')}` : ''}\n`;
}

/** A pino logger writing JSON lines (or, `pretty`, readable ones) to `sink`, stderr by default. */
export function createLogger(opts: LoggerOptions = {}): Logger {
  const sink = opts.sink ?? process.stderr;
  const destination = opts.pretty ? { write: (line: string) => sink.write(prettyLine(line)) } : { write: (line: string) => sink.write(line) };
  return pino(
    {
      level: opts.level ?? 'info',
      base: undefined,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    destination,
  );
}

/** A logger that keeps its lines, for tests: `lines` are the JSON lines, `entries` them parsed. */
export function memoryLogger(level: LoggerOptions['level'] = 'debug') {
  const lines: string[] = [];
  const log = createLogger({ level, sink: { write: (line) => lines.push(line.trimEnd()) } });
  return { log, lines, entries: () => lines.map((l) => JSON.parse(l) as Record<string, unknown>) };
}

/** Logs nothing. */
export const silentLogger = (): Logger => createLogger({ level: 'silent' });
