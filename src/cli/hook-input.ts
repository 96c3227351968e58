import { readSync } from 'node:fs';

/**
 * X1: the bounds of what `askdock hook` reads. A hook event is a few kilobytes; one past these bounds is refused with
 * the reason on stderr, and the hook prints nothing (the agent asks in its own terminal: nothing allowed by default).
 */

/** The most `askdock hook` reads from stdin (docs/agents.md says so). */
export const HOOK_EVENT_MAX_BYTES = 1024 * 1024;
/** The deepest nesting read in `tool_input` or `requested_schema` (an object or array holding one is one level more). */
export const HOOK_INPUT_MAX_DEPTH = 64;

export type StdinRead = { ok: true; text: string } | { ok: false; why: string };

const tooLarge = (maxBytes: number): StdinRead => ({ ok: false, why: `the event on stdin is larger than ${maxBytes === HOOK_EVENT_MAX_BYTES ? '1 MiB' : `${maxBytes} bytes`}, the most askdock hook reads` });

/** Reads `stream` to its end (after `chunks`, read before), or stops reading as soon as all of it passes `maxBytes`. */
export async function readBounded(stream: NodeJS.ReadableStream, maxBytes = HOOK_EVENT_MAX_BYTES, chunks: Buffer[] = []): Promise<StdinRead> {
  let size = chunks.reduce((n, c) => n + c.length, 0);
  // Leaving the loop early ends the iteration, which destroys the stream: what comes after is never buffered.
  for await (const chunk of stream) {
    const buf = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    size += buf.length;
    if (size > maxBytes) return tooLarge(maxBytes);
    chunks.push(buf);
  }
  return { ok: true, text: Buffer.concat(chunks).toString('utf8') };
}

/**
 * X1: reads the hook's stdin with plain reads of its file descriptor: making `process.stdin` a stream and iterating
 * it took ~4 ms of every start. A descriptor that would block (a non-blocking pipe: EAGAIN) or cannot be read so
 * goes on as a stream from where the reads stopped.
 */
export async function readStdin(maxBytes = HOOK_EVENT_MAX_BYTES, fd = 0, stream: () => NodeJS.ReadableStream = () => process.stdin): Promise<StdinRead> {
  const chunks: Buffer[] = [];
  let size = 0;
  const buf = Buffer.allocUnsafe(64 * 1024);
  for (;;) {
    let n: number;
    try {
      n = readSync(fd, buf, 0, buf.length, null);
    } catch {
      return readBounded(stream(), maxBytes, chunks);
    }
    if (n === 0) return { ok: true, text: Buffer.concat(chunks).toString('utf8') };
    size += n;
    if (size > maxBytes) return tooLarge(maxBytes);
    chunks.push(Buffer.from(buf.subarray(0, n)));
  }
}

/** Whether `value` nests objects or arrays deeper than `maxDepth`; walks without recursion, so any depth is safe. */
export function nestedDeeperThan(value: unknown, maxDepth = HOOK_INPUT_MAX_DEPTH): boolean {
  const stack: { v: unknown; depth: number }[] = [{ v: value, depth: 0 }];
  while (stack.length > 0) {
    const { v, depth } = stack.pop()!;
    if (typeof v !== 'object' || v === null) continue;
    if (depth + 1 > maxDepth) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v)) if (typeof child === 'object' && child !== null) stack.push({ v: child, depth: depth + 1 });
  }
  return false;
}
