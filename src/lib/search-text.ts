/**
 * U19's words: how a search box's text becomes the terms an index matches (each as a word prefix), and how a matching
 * text is cut to a snippet with its matches marked. The gateway builds results with it; the Control UI needs nothing more.
 */

/** At most this many words of a query count; more would only slow the index down. */
export const MAX_SEARCH_TERMS = 8;
const SNIPPET_BEFORE = 40;
const SNIPPET_LENGTH = 160;

const WORD = /[\p{L}\p{N}]+/gu;

/** Shorter words would match a large share of every index as prefixes: they are left out of a search. */
export const MIN_TERM_LENGTH = 2;

/** The query's words, lower case, without repeats, one-letter words, or words that another word of the query already starts. */
export function searchTerms(query: string): string[] {
  const words = [...new Set((query.toLowerCase().match(WORD) ?? []).slice(0, MAX_SEARCH_TERMS * 4))].filter((w) => Array.from(w).length >= MIN_TERM_LENGTH);
  return words.filter((w) => !words.some((other) => other !== w && other.startsWith(w))).slice(0, MAX_SEARCH_TERMS);
}

/** Where each term starts a word of `text`, as [start, end) ranges, in order and without overlaps. */
export function matchRanges(text: string, terms: readonly string[]): [number, number][] {
  if (terms.length === 0) return [];
  const lower = text.toLowerCase();
  // toLowerCase keeps lengths for nearly every script; where it does not, offsets would drift, so mark nothing.
  if (lower.length !== text.length) return [];
  const ranges: [number, number][] = [];
  for (const word of lower.matchAll(WORD)) {
    const start = word.index;
    const longest = Math.max(0, ...terms.filter((t) => word[0].startsWith(t)).map((t) => t.length));
    if (longest > 0) ranges.push([start, start + longest]);
  }
  return ranges;
}

/** One line of `text` around its first match, cut with "…", and the matches in it. */
export function snippetOf(text: string, terms: readonly string[]): { snippet: string; highlights: [number, number][] } {
  const flat = text.replace(/\s+/g, ' ').trim();
  const first = matchRanges(flat, terms)[0];
  let from = first ? Math.max(0, first[0] - SNIPPET_BEFORE) : 0;
  // Start at a word where that costs little, so the snippet does not open mid-word.
  if (from > 0) {
    const space = flat.indexOf(' ', from);
    if (space !== -1 && first && space < first[0]) from = space + 1;
  }
  const to = Math.min(flat.length, from + SNIPPET_LENGTH);
  const head = from > 0 ? '…' : '';
  const tail = to < flat.length ? '…' : '';
  const snippet = `${head}${flat.slice(from, to)}${tail}`;
  return { snippet, highlights: matchRanges(snippet, terms) };
}

/** Whether every term starts some word of `text` (what an index's prefix match finds, for stores without one). */
export function matchesAllTerms(text: string, terms: readonly string[]): boolean {
  const words = text.toLowerCase().match(WORD) ?? [];
  return terms.length > 0 && terms.every((t) => words.some((w) => w.startsWith(t)));
}
