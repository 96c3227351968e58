/**
 * X1: the bin runs the compiled CLI (dist-cli/) when it was built from the sources as they are, and the TypeScript
 * sources through tsx otherwise (not built, a source changed since, a half-written build). Each case is a copy of
 * bin/ in a folder of its own whose dist-cli and src say which of them ran.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
let root: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'askdock-bin-'));
  mkdirSync(join(root, 'bin'));
  for (const f of ['askdock.js', 'cli-dist.js']) copyFileSync(join(ROOT, 'bin', f), join(root, 'bin', f));
  symlinkSync(join(ROOT, 'node_modules'), join(root, 'node_modules'));
  writeFileSync(join(root, 'package.json'), '{"type":"module"}');
  writeFileSync(join(root, 'tsconfig.json'), '{}');
  mkdirSync(join(root, 'src', 'cli'), { recursive: true });
  // The sources say so with a type only TypeScript reads: tsx ran them.
  writeFileSync(join(root, 'src', 'cli', 'main.ts'), "export async function main(argv: string[]): Promise<number> { process.stdout.write(`sources ${argv.join(' ')}`); return 0; }\n");
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** A compiled CLI as `npm run build:cli` leaves it: main.js, and the stamp naming its sources and when the build began. */
function build(stamp: unknown | null = { startedAtMs: Date.now() + 60_000, sources: ['src/cli/main.ts', 'package.json'] }) {
  mkdirSync(join(root, 'dist-cli', 'cli'), { recursive: true });
  writeFileSync(join(root, 'dist-cli', 'cli', 'main.js'), "export async function main(argv) { process.stdout.write(`compiled ${argv.join(' ')}`); return 0; }\n");
  if (stamp !== null) writeFileSync(join(root, 'dist-cli', '.build.json'), JSON.stringify(stamp));
}

const askdock = (env: NodeJS.ProcessEnv = {}, command = 'hook') => {
  const r = spawnSync(process.execPath, [join(root, 'bin', 'askdock.js'), command, '--x'], { encoding: 'utf8', env: { ...process.env, ASKDOCK_CLI_SOURCES: '', ...env } });
  expect(r.stderr).toBe('');
  return r.stdout;
};

describe('bin/askdock.js', { timeout: 60_000 }, () => {
  it('[X1] runs dist-cli/ when its stamp is newer than every source it was built from', () => {
    build();
    expect(askdock()).toBe('compiled hook --x');
  });

  it('[X1] runs the sources through tsx when dist-cli/ is missing, half-written (no stamp) or older than a source', () => {
    expect(askdock()).toBe('sources hook --x');
    build(null);
    expect(askdock()).toBe('sources hook --x');
    build({ startedAtMs: Date.now() - 60_000, sources: ['src/cli/main.ts'] });
    expect(askdock()).toBe('sources hook --x');
    // A source named by the stamp and gone since: the build is of another tree.
    build({ startedAtMs: Date.now() + 60_000, sources: ['src/cli/gone.ts'] });
    expect(askdock()).toBe('sources hook --x');
  });

  it('[X1] a source edited after the build sends the bin back to the sources; ASKDOCK_CLI_SOURCES=1 always does', () => {
    const startedAtMs = Date.now();
    build({ startedAtMs, sources: ['src/cli/main.ts'] });
    const before = new Date(startedAtMs - 10_000);
    utimesSync(join(root, 'src', 'cli', 'main.ts'), before, before);
    expect(askdock()).toBe('compiled hook --x');
    expect(askdock({ ASKDOCK_CLI_SOURCES: '1' })).toBe('sources hook --x');
    const after = new Date(startedAtMs + 10_000);
    utimesSync(join(root, 'src', 'cli', 'main.ts'), after, after);
    expect(askdock()).toBe('sources hook --x');
  });

  it('[X1] askdock hook runs the hook bundle the stamp names, without the command table; other commands run main.js', () => {
    build({ startedAtMs: Date.now() + 60_000, sources: ['src/cli/main.ts'], hook: 'hook/hook.js' });
    mkdirSync(join(root, 'dist-cli', 'hook'));
    writeFileSync(join(root, 'dist-cli', 'hook', 'hook.js'), "export async function run(argv) { process.stdout.write(`hook bundle ${argv.join(' ')}`); return 0; }\n");
    expect(askdock()).toBe('hook bundle --x');
    expect(askdock({}, 'ask')).toBe('compiled ask --x');
    // A build without the bundle (an older one, or esbuild failed): the compiled modules, as before.
    build({ startedAtMs: Date.now() + 60_000, sources: ['src/cli/main.ts'] });
    expect(askdock()).toBe('compiled hook --x');
  });

  it("[X1] askdock hook checks only the sources its bundle was made from: an edit outside them keeps the hook on its bundle", () => {
    const startedAtMs = Date.now();
    build({ startedAtMs, sources: ['src/cli/main.ts', 'src/cli/hook.ts'], hook: 'hook/hook.js', hookSources: ['src/cli/hook.ts'] });
    mkdirSync(join(root, 'dist-cli', 'hook'));
    writeFileSync(join(root, 'dist-cli', 'hook', 'hook.js'), "export async function run(argv) { process.stdout.write(`hook bundle ${argv.join(' ')}`); return 0; }\n");
    writeFileSync(join(root, 'src', 'cli', 'hook.ts'), '');
    const before = new Date(startedAtMs - 10_000);
    const after = new Date(startedAtMs + 10_000);
    utimesSync(join(root, 'src', 'cli', 'hook.ts'), before, before);
    utimesSync(join(root, 'src', 'cli', 'main.ts'), after, after);
    expect(askdock()).toBe('hook bundle --x');
    // Every other command checks every source: main.ts changed, so they run the sources.
    expect(askdock({}, 'ask')).toBe('sources ask --x');
    // A source of the bundle edited after the build: the hook runs the sources too.
    utimesSync(join(root, 'src', 'cli', 'hook.ts'), after, after);
    expect(askdock()).toBe('sources hook --x');
  });
});
