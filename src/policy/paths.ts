/**
 * G1: gitignore-style path rules for Read/Edit/Write: `//abs` from the file-system root, `~/x` from the home folder,
 * `/x` from the project root, `./x` or `x` from the working folder; `*` one path segment, `**` any depth. A bare
 * name with no slash (`*.env`) matches at any depth below the working folder, and a pattern whose last segment has
 * no wildcard (`/docs`) also covers everything inside that folder, as in .gitignore.
 */
import { homedir } from 'node:os';
import { posix } from 'node:path';

export interface PathBases {
  cwd?: string;
  projectRoot?: string;
  home?: string;
}

/** The absolute pattern a rule's specifier stands for, or null when its base is unknown. */
export function absolutePattern(spec: string, bases: PathBases): string | null {
  const home = bases.home ?? homedir();
  if (spec.startsWith('//')) return posix.normalize(spec.slice(1));
  if (spec === '~') return home;
  if (spec.startsWith('~/')) return posix.join(home, spec.slice(2));
  if (spec.startsWith('/')) {
    const root = bases.projectRoot ?? bases.cwd;
    return root ? posix.join(root, spec) : null;
  }
  if (!bases.cwd) return null;
  if (spec.startsWith('./')) return posix.join(bases.cwd, spec.slice(2));
  const trimmed = spec.replace(/\/+$/, '');
  return trimmed.includes('/') ? posix.join(bases.cwd, spec) : posix.join(bases.cwd, '**', trimmed);
}

const cache = new Map<string, RegExp>();

/** `*` and `?` stay within a segment; `/**` spans any number of segments (also none). */
export function globToRegex(abs: string): RegExp {
  const hit = cache.get(abs);
  if (hit) return hit;
  let re = '';
  for (let i = 0; i < abs.length; ) {
    if (abs.startsWith('/**', i) && (i + 3 === abs.length || abs[i + 3] === '/')) {
      re += '(?:/.*)?';
      i += 3;
    } else if (abs[i] === '*') {
      while (abs[i] === '*') i++;
      re += '[^/]*';
    } else if (abs[i] === '?') {
      re += '[^/]';
      i++;
    } else {
      re += abs[i].replace(/[.+^${}()|[\]\\]/g, '\\$&');
      i++;
    }
  }
  const last = abs.slice(abs.lastIndexOf('/') + 1);
  const covers = /[*?]/.test(last) ? '' : '(?:/.*)?';
  const compiled = new RegExp(`^${re}${covers}$`, 's');
  if (cache.size > 2000) cache.clear();
  cache.set(abs, compiled);
  return compiled;
}

/** The absolute, normalised file a request touches, or null when it names none or it cannot be placed. */
export function requestPath(input: Record<string, unknown>, bases: PathBases): string | null {
  const raw = input.file_path ?? input.notebook_path ?? input.path;
  if (typeof raw !== 'string' || raw === '' || raw.includes('\0')) return null;
  const home = bases.home ?? homedir();
  if (raw === '~' || raw.startsWith('~/')) return posix.join(home, raw.slice(1));
  if (raw.startsWith('/')) return posix.normalize(raw);
  const base = bases.cwd ?? bases.projectRoot;
  return base ? posix.resolve(base, raw) : null;
}

export function pathMatches(spec: string, file: string, bases: PathBases): boolean {
  const abs = absolutePattern(spec, bases);
  return abs !== null && globToRegex(abs).test(file);
}
