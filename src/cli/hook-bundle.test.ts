/**
 * X1: `askdock hook` starts on every tool call, so what it loads is guarded here by counting files, not timing them.
 * The hook's bundle (scripts/cli-bundle.mjs, what the compiled bin runs) is made into a temporary folder; its entry
 * must hold no client, ws or protocol schemas, and a run is watched by a module loader hook that lists every file it
 * loads: an event the hook does not ask loads the entry alone, an asked one the file with the client too, and never
 * ask_user's schemas (ask-user.ts), which only an askUser call needs.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleHook, HOOK_BUNDLE_DIR } from '../../scripts/cli-bundle.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
/** What only an asked event may load: the gateway client, its socket, the protocol's schemas. */
const ASKING_ONLY = [/node_modules\/zod\//, /node_modules\/ws\//, /^src\/client\//, /^src\/protocol\/methods\.ts$/, /^src\/agent\/sdk\.ts$/];

type Metafile = { outputs: Record<string, { entryPoint?: string; inputs: Record<string, unknown>; imports: { path: string; kind: string }[] }> };

let out: string;
let meta: Metafile;

beforeAll(async () => {
  out = mkdtempSync(join(tmpdir(), 'askdock-hook-bundle-'));
  meta = (await bundleHook(ROOT, out)) as Metafile;
}, 60_000);
afterAll(() => rmSync(out, { recursive: true, force: true }));

/** The bundle's files the entry loads before it runs (itself and what it imports statically), by their metafile key. */
function staticFiles(): string[] {
  const entry = Object.keys(meta.outputs).find((k) => meta.outputs[k].entryPoint === 'src/cli/hook.ts');
  if (!entry) throw new Error('no output for src/cli/hook.ts');
  const seen = new Set<string>();
  const walk = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    for (const i of meta.outputs[key].imports) if (i.kind === 'import-statement' && meta.outputs[i.path]) walk(i.path);
  };
  walk(entry);
  return [...seen];
}

/** Runs the bundle's entry on `event` under a loader hook; returns the bundle files it loaded (names in the folder). */
function filesLoaded(event: unknown): string[] {
  const hooks = join(out, 'list-loads.mjs');
  writeFileSync(hooks, 'export async function load(url, context, next) { if (url.startsWith("file:")) process._rawDebug("LOADED " + url); return next(url, context); }\n');
  const register = `import { register } from 'node:module'; register(${JSON.stringify(pathToFileURL(hooks).href)});`;
  const runner = `const { run } = await import(${JSON.stringify(pathToFileURL(join(out, HOOK_BUNDLE_DIR, 'hook.js')).href)}); process.exitCode = await run(['--url', 'ws://127.0.0.1:1', '--token', 'not-checked-here']);`;
  const r = spawnSync(process.execPath, ['--import', `data:text/javascript,${encodeURIComponent(register)}`, '--input-type=module', '-e', runner], { input: JSON.stringify(event), encoding: 'utf8', timeout: 30_000 });
  expect(r.status).toBe(0);
  const bundleDir = pathToFileURL(join(out, HOOK_BUNDLE_DIR)).href + '/';
  return [...r.stderr.matchAll(/^LOADED (\S+)$/gm)].map((m) => m[1]).filter((u) => u.startsWith(bundleDir)).map((u) => u.slice(bundleDir.length)).sort();
}

const event = (over: Record<string, unknown>) => ({ session_id: 's1', cwd: '/home/dev/shop', tool_input: { command: 'ls' }, ...over });

describe('askdock hook: what a start loads', { timeout: 60_000 }, () => {
  it('[X1] the entry and what it imports at start hold no client, ws, zod or protocol schemas', () => {
    const inputs = staticFiles().flatMap((k) => Object.keys(meta.outputs[k].inputs));
    expect(inputs).toContain('src/cli/hook.ts');
    expect(inputs.filter((p) => ASKING_ONLY.some((re) => re.test(p)))).toEqual([]);
    // ...and the bundle as a whole does hold them: they are loaded later, not left out.
    const all = Object.values(meta.outputs).flatMap((o) => Object.keys(o.inputs));
    for (const re of ASKING_ONLY) expect(all.some((p) => re.test(p)), String(re)).toBe(true);
  });

  it('[X1] an event the hook does not ask loads the entry alone; an asked one loads the client file too', () => {
    const atStart = staticFiles().map((k) => k.split('/').at(-1)!).sort();
    const ignored = filesLoaded(event({ hook_event_name: 'PreToolUse', tool_name: 'Bash' }));
    expect(ignored).toEqual(atStart);
    const asked = filesLoaded(event({ hook_event_name: 'PermissionRequest', tool_name: 'Bash' }));
    expect(asked.length).toBeGreaterThan(ignored.length);
    // Every file but ask_user's (its schemas and JSON Schema, for askUser calls the hook never makes).
    const askUser = Object.keys(meta.outputs).filter((k) => 'src/agent/ask-user.ts' in meta.outputs[k].inputs).map((k) => k.split('/').at(-1)!);
    expect(askUser).toHaveLength(1);
    expect(asked).toEqual(readdirSync(join(out, HOOK_BUNDLE_DIR)).filter((f) => f.endsWith('.js') && !askUser.includes(f)).sort());
  });

  it("[X1] zod is bundled as far as it is used: none of its ~50 locales but English's", () => {
    const zodInputs = Object.values(meta.outputs).flatMap((o) => Object.keys(o.inputs)).filter((p) => p.includes('node_modules/zod/'));
    expect(zodInputs.length).toBeGreaterThan(0);
    expect(zodInputs.filter((p) => /\/locales\/(?!en\.js$|index\.js$)/.test(p))).toEqual([]);
    // What ships is what was checked: the bundle's files are all the metafile names.
    const written = readdirSync(join(out, HOOK_BUNDLE_DIR)).filter((f) => f.endsWith('.js'));
    expect(written.sort()).toEqual(Object.keys(meta.outputs).map((k) => k.split('/').at(-1)!).sort());
    expect(readFileSync(join(out, HOOK_BUNDLE_DIR, 'hook.js'), 'utf8')).toContain('PermissionRequest');
  });

  it("[X1] the hook makes no locale-dependent call: ICU's locale data would load on its first use, on every start", () => {
    const code = readdirSync(join(out, HOOK_BUNDLE_DIR)).filter((f) => f.endsWith('.js')).map((f) => readFileSync(join(out, HOOK_BUNDLE_DIR, f), 'utf8'));
    expect(code.length).toBeGreaterThan(1);
    expect(code.flatMap((c) => c.match(/\btoLocale\w*String\b|\bIntl\.\w+|\blocaleCompare\b/g) ?? [])).toEqual([]);
  });

  it('[X1] the event is read from the descriptor: process.stdin, a stream made on first use, is never made', () => {
    const count = `let n = 0; const d = Object.getOwnPropertyDescriptor(process, 'stdin'); Object.defineProperty(process, 'stdin', { configurable: true, get() { n++; return d.get.call(process); } }); process.on('exit', () => process._rawDebug('STDIN ' + n));`;
    const runner = `const { run } = await import(${JSON.stringify(pathToFileURL(join(out, HOOK_BUNDLE_DIR, 'hook.js')).href)}); process.exitCode = await run([]);`;
    const r = spawnSync(process.execPath, ['--import', `data:text/javascript,${encodeURIComponent(count)}`, '--input-type=module', '-e', runner], { input: JSON.stringify(event({ hook_event_name: 'PreToolUse', tool_name: 'Bash' })), encoding: 'utf8', timeout: 30_000 });
    expect(r.status).toBe(0);
    // The event was read whole: it is judged (left to the agent), not refused as unreadable.
    expect(r.stderr).toContain('PreToolUse for Bash is left to the agent');
    expect(r.stderr).toMatch(/^STDIN 0$/m);
  });
});
