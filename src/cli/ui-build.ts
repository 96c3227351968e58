/** `askdock start` builds the Control UI first when `dist/` is missing or older than its sources. */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/**
 * What the UI build reads, relative to the repository root: the UI, and what it bundles from beside it (the shared
 * client, the protocol, answers and lib: every folder src/ui imports from, directly or through them).
 */
const UI_SOURCES = ['src/ui', 'src/client', 'src/protocol', 'src/answers', 'src/lib', 'index.html', 'vite.config.ts', 'public'];

/** Tests sit beside the code (STYLE) and are never bundled. */
const isTest = (name: string) => /\.test\.tsx?$/.test(name);

function newestMtimeMs(path: string): number {
  let st;
  try {
    st = statSync(path);
  } catch {
    return 0;
  }
  if (!st.isDirectory()) return isTest(path) ? 0 : st.mtimeMs;
  // Not the folder's own time: it moves when a test beside the code is added or deleted. A new source counts by its own.
  let newest = 0;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtimeMs(join(path, entry)));
  return newest;
}

/** Why the UI needs building, or null when `dist/index.html` is newer than every source. */
export function uiBuildReason(root: string): string | null {
  const built = join(root, 'dist', 'index.html');
  if (!existsSync(built)) return 'dist/ is missing';
  const builtAt = statSync(built).mtimeMs;
  const newest = Math.max(...UI_SOURCES.map((p) => newestMtimeMs(join(root, p))));
  return newest > builtAt ? 'the UI sources changed since the last build' : null;
}

/**
 * Runs `vite build` in `root`, its output on stderr (stdout is for the addresses). Resolves with its exit code;
 * aborting `signal` stops the build.
 */
export function buildUi(root: string, signal?: AbortSignal): Promise<number> {
  const vite = join(root, 'node_modules', 'vite', 'bin', 'vite.js');
  if (!existsSync(vite)) return Promise.resolve(127);
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [vite, 'build'], { cwd: root, stdio: ['ignore', 2, 2] });
    const onAbort = () => child.kill('SIGTERM');
    signal?.addEventListener('abort', onAbort, { once: true });
    const done = (code: number) => {
      signal?.removeEventListener('abort', onAbort);
      resolve(code);
    };
    child.once('error', () => done(1));
    child.once('exit', (code) => done(code ?? 1));
  });
}
