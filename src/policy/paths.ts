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

/** One path segment against one pattern segment: `*` any run, `?` one character; O(pattern × segment), no backtracking blow-up. */
export function segmentMatches(pat: string, seg: string): boolean {
  let i = 0;
  let j = 0;
  let star = -1;
  let mark = 0;
  while (j < seg.length) {
    if (i < pat.length && (pat[i] === '?' || (pat[i] !== '*' && pat[i] === seg[j]))) {
      i++;
      j++;
    } else if (i < pat.length && pat[i] === '*') {
      star = i++;
      mark = j;
    } else if (star >= 0) {
      i = star + 1;
      j = ++mark;
    } else return false;
  }
  while (pat[i] === '*') i++;
  return i === pat.length;
}

/** An absolute pattern against an absolute path, segment by segment; `**` spans any number of segments (also none). */
export function globMatches(abs: string, file: string): boolean {
  const pat = abs.replace(/\/+$/, '').split('/');
  const path = file.split('/');
  // A pattern whose last segment has no wildcard also covers what is inside that folder, as in .gitignore.
  const covers = !/[*?]/.test(pat[pat.length - 1]);
  const seen = new Uint8Array((pat.length + 1) * (path.length + 1)); // 0 unknown, 1 no, 2 yes
  const at = (pi: number, si: number): boolean => {
    const key = pi * (path.length + 1) + si;
    if (seen[key]) return seen[key] === 2;
    let ok: boolean;
    if (pi === pat.length) ok = si === path.length || (covers && si > 0);
    else if (pat[pi] === '**') ok = at(pi + 1, si) || (si < path.length && at(pi, si + 1));
    else ok = si < path.length && segmentMatches(pat[pi], path[si]) && at(pi + 1, si + 1);
    seen[key] = ok ? 2 : 1;
    return ok;
  };
  return at(0, 0);
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
  return abs !== null && globMatches(abs, file);
}
