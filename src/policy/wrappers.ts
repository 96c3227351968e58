/**
 * G3: what a command runs. Wrappers that run the same command (`timeout N`, `nice [-n N]`, `nohup`, `env X=1`,
 * `VAR=1`, `command`, `builtin`, `exec`) are seen through for every rule. Commands that run another with other
 * rights or inputs (`sudo`, `doas`, `xargs`) are seen through for deny and ask rules only: `Bash(rm *)` denies
 * `sudo rm -rf x`, but `Bash(ls *)` does not allow `sudo ls`.
 */

export const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*(\[[^\]]*\])?\+?=/;

/** Skips `-x` flags from `k`; those in `withValue` take the next word too. Returns the first word after them. */
function skipFlags(w: readonly string[], k: number, withValue: readonly string[]): number {
  while (w[k]?.startsWith('-') && w[k] !== '-') {
    if (w[k] === '--') return k + 1;
    k += withValue.includes(w[k]) ? 2 : 1;
  }
  return k;
}

/** How many leading words one wrapper takes, or 0 when `w[at]` is none (or one with an option it does not know). */
function wrapperWords(w: readonly string[], at: number): number {
  const cmd = w[at];
  if (cmd === 'nohup' || cmd === 'builtin') return 1;
  if (cmd === 'command') return w[at + 1] === '-v' || w[at + 1] === '-V' ? 0 : skipFlags(w, at + 1, []) - at;
  if (cmd === 'exec') return skipFlags(w, at + 1, ['-a']) - at;
  if (cmd === 'timeout') {
    const k = skipFlags(w, at + 1, ['-s', '-k', '--signal', '--kill-after']);
    return k < w.length - 1 ? k + 1 - at : 0;
  }
  if (cmd === 'nice') {
    const a = w[at + 1];
    if (a === '-n' || a === '--adjustment') return 3;
    return a !== undefined && /^(-\d+|--adjustment=.*)$/.test(a) ? 2 : 1;
  }
  if (cmd === 'env') {
    let k = at + 1;
    for (;;) {
      const a = w[k];
      if (a === '-i' || a === '-' || a === '--ignore-environment' || (a !== undefined && (ASSIGNMENT.test(a) || a.startsWith('--unset=')))) k++;
      else if (a === '-u' || a === '--unset') k += 2;
      else break;
    }
    return w[k] === undefined || !w[k].startsWith('-') ? k - at : 0;
  }
  return 0;
}

/** Drops leading assignments and wrappers; an unknown wrapper option keeps the wrapper in the text. */
export function stripWrappers(words: readonly string[]): string[] {
  let w = words.slice();
  for (;;) {
    let skip = 0;
    while (skip < w.length && ASSIGNMENT.test(w[skip])) skip++;
    skip += wrapperWords(w, skip);
    if (skip === 0 || skip >= w.length) return w;
    w = w.slice(skip);
  }
}

// A Map, not an object: a command named `constructor` or `toString` is no runner.
const RUNNERS = new Map<string, readonly string[]>([
  ['sudo', ['-u', '-g', '-C', '-D', '-h', '-p', '-r', '-t', '-U', '-T', '--user', '--group', '--prompt']],
  ['doas', ['-u', '-C']],
  ['xargs', ['-n', '-I', '-L', '-P', '-s', '-d', '-E', '-a', '--max-args', '--max-procs', '--delimiter', '--arg-file']],
]);

/** The command `sudo`, `doas` or `xargs` runs (with its own wrappers dropped), or undefined. */
export function runsAs(words: readonly string[]): string | undefined {
  let w = words;
  let changed = false;
  for (let flags = RUNNERS.get(w[0]); w.length && flags; flags = RUNNERS.get(w[0])) {
    const k = skipFlags(w, 1, flags);
    if (k >= w.length) break;
    w = stripWrappers(w.slice(k));
    changed = true;
  }
  return changed ? w.join(' ') : undefined;
}
