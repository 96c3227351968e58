/**
 * X1: the bounds of what `askdock hook` reads. A hook event is a few kilobytes; one past these bounds is refused with
 * the reason on stderr, and the hook prints nothing (the agent asks in its own terminal: nothing allowed by default).
 */

/** The most `askdock hook` reads from stdin (docs/agents.md says so). */
export const HOOK_EVENT_MAX_BYTES = 1024 * 1024;
/** The deepest nesting read in `tool_input` or `requested_schema` (an object or array holding one is one level more). */
export const HOOK_INPUT_MAX_DEPTH = 64;

export type StdinRead = { ok: true; text: string } | { ok: false; why: string };

/** Reads `stream` to its end, or stops reading as soon as it carries more than `maxBytes`. */
export async function readBounded(stream: NodeJS.ReadableStream, maxBytes = HOOK_EVENT_MAX_BYTES): Promise<StdinRead> {
  const chunks: Buffer[] = [];
  let size = 0;
  // Leaving the loop early ends the iteration, which destroys the stream: what comes after is never buffered.
  for await (const chunk of stream) {
    const buf = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    size += buf.length;
    if (size > maxBytes) return { ok: false, why: `the event on stdin is larger than ${maxBytes === HOOK_EVENT_MAX_BYTES ? '1 MiB' : `${maxBytes} bytes`}, the most askdock hook reads` };
    chunks.push(buf);
  }
  return { ok: true, text: Buffer.concat(chunks).toString('utf8') };
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
