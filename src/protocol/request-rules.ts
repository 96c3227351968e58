/**
 * The checks and cuts of what a client sends (a question list, an item's kind fields, NUL in a frame, a header, a
 * timeout): the gateway's, its fast path's (plain-params.ts) and the schemas'. No zod here either. Apart from rules.ts,
 * because the Control UI never asks: its first load takes rules.ts, and these come only with the schemas' own chunk.
 */
import {
  CONFIRM_LABELS,
  DEFAULT_TIMEOUT_MS,
  HEADER_CUT_MARK,
  HEADER_MAX,
  KIND_IDS,
  LINK_LABELS,
  MAX_TIMEOUT_MS,
  MIN_TIMEOUT_MS,
  type KindId,
} from './rules.ts';

/** Cuts to `max` code points, so a header never ends in half an emoji. */
export function cutCodePoints(text: string, max: number): string {
  const points = Array.from(text);
  return points.length > max ? points.slice(0, max).join('') : text;
}

/**
 * Q2/T1: a header cut to `max` code points on a word, ending in an ellipsis that counts within `max`: at the last space
 * that leaves room for it when that keeps at least half of the limit, else by code point. A header that fits comes back
 * as it is, so cutting twice cuts once.
 */
export function cutHeader(text: string, max = HEADER_MAX): string {
  const points = Array.from(text);
  if (points.length <= max) return text;
  const room = max - 1;
  let space = -1;
  for (let i = room; i > 0; i--) {
    if (/\s/u.test(points[i])) {
      space = i;
      break;
    }
  }
  const kept = space >= 0 ? points.slice(0, space).join('').trimEnd() : '';
  const head = Array.from(kept).length * 2 >= max ? kept : points.slice(0, room).join('').trimEnd();
  return head + HEADER_CUT_MARK;
}

/** Free text is always allowed, so an authored "Other" / "Other…" / "Other (specify)" option is refused. */
export function isAuthoredOther(label: string): boolean {
  const plain = label.trim().toLowerCase().replace(/[\s.…:!?]+$/u, '');
  return plain === 'other' || /^other\s*\(/.test(plain) || plain === 'something else';
}

export type ListProblem = { path: (string | number)[]; message: string };

/** P3: no text of a frame may carry U+0000 (NUL); PostgreSQL cannot store it, so no store takes it. */
export const NUL_PROBLEM = 'must not contain the NUL character (U+0000)';

/**
 * Where a parsed frame's strings (keys too) hold U+0000, as paths relative to `value`. JSON writes NUL as the escape
 * `\\u0000`, so a frame whose text has no such escape has none: `frameText` lets a caller skip the walk.
 */
export function nulPaths(value: unknown, frameText?: string): (string | number)[][] {
  if (frameText !== undefined && !frameText.includes('\\u0000')) return [];
  const found: (string | number)[][] = [];
  const walk = (v: unknown, path: (string | number)[]) => {
    if (found.length >= 20) return;
    if (typeof v === 'string') {
      if (v.includes('\0')) found.push(path);
    } else if (Array.isArray(v)) {
      v.forEach((x, i) => walk(x, [...path, i]));
    } else if (typeof v === 'object' && v !== null) {
      for (const [k, x] of Object.entries(v)) {
        if (k.includes('\0')) found.push([...path, k]);
        else walk(x, [...path, k]);
      }
    }
  };
  walk(value, []);
  return found;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The cross-field rules of a question list (Q2, T1): ids unique, labels unique per question (case-insensitive, trimmed),
 * no authored Other. Reads raw input too, skipping what is malformed, so a caller can report these beside the
 * per-field faults in one answer; paths are relative to the list.
 */
export function questionListProblems(items: readonly unknown[]): ListProblem[] {
  const problems: ListProblem[] = [];
  const seenIds = new Set<string>();
  items.forEach((item, qi) => {
    if (!isRecord(item)) return;
    if (typeof item.id === 'string') {
      if (seenIds.has(item.id)) problems.push({ path: [qi, 'id'], message: `id "${item.id}" is used twice` });
      seenIds.add(item.id);
    }
    if (!Array.isArray(item.options)) return;
    const seenLabels = new Set<string>();
    item.options.forEach((option: unknown, oi) => {
      if (!isRecord(option) || typeof option.label !== 'string') return;
      const label = option.label.trim();
      const path = [qi, 'options', oi, 'label'];
      if (label && seenLabels.has(label.toLowerCase())) problems.push({ path, message: `label "${label}" is used twice` });
      seenLabels.add(label.toLowerCase());
      if (isAuthoredOther(label)) problems.push({ path, message: 'must not be an authored "Other" option: free text is always allowed' });
    });
  });
  return problems;
}

/** Q12: the answers a kind brings itself, given as its options (a protocol-1 client sees them as a choice's options). */
export const OWN_LABELS: Partial<Record<KindId, readonly string[]>> = { confirm: CONFIRM_LABELS, link: LINK_LABELS };

/**
 * Q12/T3: which fields a question's kind takes (options for choice and approval, url for link, input for input). Reads
 * raw input too, so a caller can name these beside an item's other faults in one answer; paths are relative to the item.
 * An unknown kind has no rules here (the kind itself is the fault).
 */
export function itemKindProblems(item: unknown): ListProblem[] {
  if (!isRecord(item)) return [];
  const kind = item.kind ?? 'choice';
  if (!(KIND_IDS as readonly unknown[]).includes(kind)) return [];
  const problems: ListProblem[] = [];
  const fault = (field: string, message: string) => problems.push({ path: [field], message });
  const takesOptions = kind === 'choice' || kind === 'approval';
  if (takesOptions && item.options === undefined) fault('options', `options are required for a ${kind} question`);
  const own = OWN_LABELS[kind as KindId];
  // A kind's own labels may be given back as its options (a parsed item sent on), nothing else.
  const options = item.options;
  const ownGiven =
    own !== undefined &&
    Array.isArray(options) &&
    options.length === own.length &&
    options.every((o: unknown, i) => isRecord(o) && typeof o.label === 'string' && o.label.trim() === own[i]);
  if (!takesOptions && options !== undefined && !ownGiven) fault('options', `a ${kind} question takes no options${own ? `: its answers are ${own.join(' and ')}` : ''}`);
  if (item.multiSelect === true && kind !== 'choice') fault('multiSelect', 'multiSelect is only for choice questions');
  if (kind === 'link' && item.url === undefined) fault('url', 'url is required for a link question');
  if (kind === 'input' && item.input === undefined) fault('input', 'input is required for an input question');
  if (kind !== 'input' && item.input !== undefined) fault('input', 'input is only for input questions');
  const input = item.input;
  if (isRecord(input) && typeof input.minimum === 'number' && typeof input.maximum === 'number' && input.minimum > input.maximum)
    fault('input', 'input.minimum must not be above input.maximum');
  return problems;
}

/** Q3: default 900 s, clamped to 30 s..3600 s. */
export function clampTimeoutMs(timeoutMs: number | undefined): number {
  if (timeoutMs === undefined) return DEFAULT_TIMEOUT_MS;
  return Math.min(MAX_TIMEOUT_MS, Math.max(MIN_TIMEOUT_MS, Math.round(timeoutMs)));
}
