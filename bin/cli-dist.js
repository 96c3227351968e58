// The compiled bin (`npm run build:cli` -> dist-cli/) and whether it is fresh. Plain JavaScript: the bin reads it
// before anything else loads, on every start (a hook runs once per tool call), so it only stats files.
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

export const DIST_CLI = 'dist-cli';
export const STAMP = '.build.json';

/**
 * The compiled entry (`dist-cli/cli/main.js`) when dist-cli was built from the sources as they are now: every
 * source it was compiled from still there and not changed since the build began, and `hook` the bundle `askdock
 * hook` runs (null when the build made none). Otherwise `entry` is null, with why. X1: for `askdock hook` (`command`
 * 'hook') only the sources its bundle was made from are checked, about 70 of the ~370, when the stamp names them.
 */
export function freshCli(root, command) {
  let stamp;
  try {
    stamp = JSON.parse(readFileSync(join(root, DIST_CLI, STAMP), 'utf8'));
  } catch {
    return { entry: null, hook: null, why: `${DIST_CLI}/ is not built` };
  }
  if (!Array.isArray(stamp.sources) || typeof stamp.startedAtMs !== 'number') return { entry: null, hook: null, why: `${DIST_CLI}/${STAMP} is not one this build writes` };
  const hookOnly = command === 'hook' && typeof stamp.hook === 'string' && Array.isArray(stamp.hookSources);
  for (const source of hookOnly ? stamp.hookSources : stamp.sources) {
    let mtimeMs;
    try {
      mtimeMs = statSync(join(root, source)).mtimeMs;
    } catch {
      return { entry: null, hook: null, why: `${source} is gone` };
    }
    if (mtimeMs > stamp.startedAtMs) return { entry: null, hook: null, why: `${source} changed since the build` };
  }
  // X1: `askdock hook`'s bundle (scripts/cli-bundle.mjs), when this build made one.
  const hook = typeof stamp.hook === 'string' ? join(root, DIST_CLI, stamp.hook) : null;
  return { entry: join(root, DIST_CLI, 'cli', 'main.js'), hook, why: '' };
}
