/**
 * G3: mvdan/sh (sh-syntax) with one WebAssembly instance for every parse. sh-syntax's own `parse` compiles and starts
 * a new instance (a 10 MB memory, the Go runtime) for each call: milliseconds of CPU per command. Here the module is
 * compiled once and one started instance serves every parse. That instance's garbage collector must never run (the
 * Go runtime has exited after start-up, and a collection then traps), so its memory is put back to the state right
 * after start-up long before its heap can fill; a trap all the same puts it back too, and that one command is parsed
 * by sh-syntax's own `parse` on a fresh instance.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { getProcessor, parse as parseOnFreshInstance, type File, type ShOptions } from 'sh-syntax';

/** What a parse may use of the 10 MB heap before the memory is put back: an estimate, kept well under half. */
const HEAP_BUDGET = 4 * 1024 * 1024;
/** Measured: 0.2-8 KB per command, 25-160 bytes per byte of command text; over-estimated on purpose. */
const heapEstimate = (text: string) => 1024 + 192 * text.length;
/** Commands this long are parsed on a fresh instance: their estimate alone is a good part of the budget. */
const LONG_COMMAND = 16 * 1024;

interface Shared {
  instance: WebAssembly.Instance;
  /** The instance as sh-syntax's processor sees it after the first call: started already, so starting is a no-op. */
  started: WebAssembly.Instance;
  snapshot: Uint8Array | null;
  used: number;
}

let module: Promise<WebAssembly.Module> | null = null;
let shared: Promise<Shared> | null = null;
let current: Shared | null = null;

/** How many instances this module has started (tests count work with it). */
export const parserStats = { instances: 0, resets: 0, fresh: 0 };

function compiled(): Promise<WebAssembly.Module> {
  module ??= (async () => {
    const path = createRequire(import.meta.url).resolve('sh-syntax/main.wasm');
    return WebAssembly.compile(readFileSync(path));
  })();
  return module;
}

const processor = getProcessor(async (imports: WebAssembly.Imports) => {
  if (current) return current.started;
  shared ??= (async () => {
    const instance = await WebAssembly.instantiate(await compiled(), imports);
    parserStats.instances++;
    const noop = () => {};
    const started = { exports: { ...instance.exports, _start: noop, _initialize: noop } } as unknown as WebAssembly.Instance;
    return { instance, started, snapshot: null, used: 0 };
  })();
  const s = await shared;
  if (current) return s.started;
  current = s;
  return s.instance; // this call starts it (sh-syntax runs `_start`)
});

function memoryOf(s: Shared): Uint8Array {
  return new Uint8Array((s.instance.exports.memory as WebAssembly.Memory).buffer);
}

function reset(s: Shared): void {
  if (s.snapshot) memoryOf(s).set(s.snapshot);
  s.used = 0;
  parserStats.resets++;
}

async function ready(): Promise<Shared> {
  if (current?.snapshot) return current;
  await processor(':', { keepComments: false });
  const s = current as unknown as Shared;
  s.snapshot ??= memoryOf(s).slice();
  s.used = 0;
  return s;
}

/** sh-syntax's `parse`, on the shared instance. */
export async function parseShell(text: string, options: ShOptions = {}): Promise<File> {
  if (text.length > LONG_COMMAND) {
    parserStats.fresh++;
    return parseOnFreshInstance(text, options);
  }
  const s = await ready();
  const cost = heapEstimate(text);
  if (s.used + cost > HEAP_BUDGET) reset(s);
  s.used += cost;
  try {
    return await processor(text, options);
  } catch (err) {
    if (!(err instanceof WebAssembly.RuntimeError)) throw err; // the command's syntax error
    reset(s);
    parserStats.fresh++;
    return parseOnFreshInstance(text, options);
  }
}
