import { describe, expect, it } from 'vitest';
import { matchesAllTerms, matchRanges, searchTerms, snippetOf } from './search-text.ts';

describe('search text', () => {
  it('[U19] takes the words of a query, lower case, and drops punctuation, repeats and words another one extends', () => {
    expect(searchTerms('  Deploy, "staging"!  deploy de ')).toEqual(['deploy', 'staging']);
    expect(searchTerms('---')).toEqual([]);
    expect(searchTerms('café Ωmega 42')).toEqual(['café', 'ωmega', '42']);
    expect(searchTerms('aa bb cc dd ee ff gg hh ii jj')).toHaveLength(8);
    // One-letter words match too much of any index as prefixes (S5): they are left out.
    expect(searchTerms('a b c d e f g h')).toEqual([]);
    expect(searchTerms('C release x')).toEqual(['release']);
  });

  it('[U19] marks each word a term starts, and only at word starts', () => {
    const text = 'Deploy to staging; redeploy later';
    expect(matchRanges(text, ['dep', 'stag'])).toEqual([
      [0, 3],
      [10, 14],
    ]);
    expect(matchesAllTerms(text, ['dep', 'stag'])).toBe(true);
    expect(matchesAllTerms(text, ['dep', 'prod'])).toBe(false);
  });

  it('[U19] cuts a long text around its first match and marks the matches inside the cut', () => {
    const text = `${'lorem ipsum '.repeat(30)}the Production database ${'dolor '.repeat(40)}`;
    const { snippet, highlights } = snippetOf(text, ['production']);
    expect(snippet.startsWith('…')).toBe(true);
    expect(snippet.endsWith('…')).toBe(true);
    expect(snippet.length).toBeLessThanOrEqual(162);
    expect(highlights).toHaveLength(1);
    const [start, end] = highlights[0];
    expect(snippet.slice(start, end)).toBe('Production');
  });

  it('[U19] a short text is its own snippet, line breaks folded', () => {
    expect(snippetOf('Where to\ndeploy?', ['deploy'])).toEqual({ snippet: 'Where to deploy?', highlights: [[9, 15]] });
  });
});
