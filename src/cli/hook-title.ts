/**
 * X1: what tells one agent run's askdock session from the next in the same folder: the run's first prompt, as the
 * agent's own list of past conversations shows it (Claude Code's `/resume`, Codex's `resume`), read from the start of
 * the transcript the hook event names; when there is none to read, the time the run first asked.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { dayAndClockText } from '../lib/clock-text.ts';

/** Only the start of a transcript is read: the first prompt is near its top, and a transcript grows without bound. */
export const TRANSCRIPT_HEAD_BYTES = 256 * 1024;
/** How much of the prompt goes in the title. */
export const PROMPT_IN_TITLE = 60;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The text of a message's content: a string, or the text parts of an array (`text`, Codex's `input_text`). */
function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((part) => (isObject(part) && typeof part.text === 'string' && (part.type === 'text' || part.type === 'input_text') ? part.text : '')).join(' ');
}

/** A person's prompt in one transcript line (Claude Code's `{type:"user", message}`, Codex's `response_item` payload), or ''. */
function promptOf(entry: unknown): string {
  if (!isObject(entry) || entry.isMeta === true) return '';
  const message = isObject(entry.message) ? entry.message : isObject(entry.payload) ? entry.payload : null;
  if (!message || message.role !== 'user') return '';
  const text = contentText(message.content).trim();
  // Context the agent adds (`<environment_context>`, `<command-name>`, a tool's result) is not what the person typed.
  return text.startsWith('<') ? '' : text;
}

/** The first prompt of the transcript at `path`, on one line; '' when there is none to read. */
export function firstPrompt(path: string | undefined): string {
  if (!path) return '';
  let head: string;
  try {
    const fd = openSync(path, 'r');
    try {
      const buf = Buffer.alloc(TRANSCRIPT_HEAD_BYTES);
      head = buf.subarray(0, readSync(fd, buf, 0, buf.length, 0)).toString('utf8');
    } finally {
      closeSync(fd);
    }
  } catch {
    return '';
  }
  for (const line of head.split('\n')) {
    let entry: unknown;
    try {
      entry = JSON.parse(line);
    } catch {
      continue;
    }
    const prompt = promptOf(entry).replace(/\s+/g, ' ');
    if (prompt) return Array.from(prompt).length > PROMPT_IN_TITLE ? `${Array.from(prompt).slice(0, PROMPT_IN_TITLE - 1).join('')}…` : prompt;
  }
  return '';
}

/**
 * The local date and minute, as a person reads a clock: `Dec 6 07:24` (the Control UI writes its times the same way).
 */
export const startedAt = (now: Date = new Date()): string => dayAndClockText(now);

/** What follows `Claude Code · <folder> · ` in the run's session title. */
export function runLabel(transcriptPath: string | undefined, now: Date = new Date()): string {
  return firstPrompt(transcriptPath) || startedAt(now);
}
