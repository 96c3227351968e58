import { describe, expect, it } from 'vitest';
import { absolutePattern, globMatches, requestPath, segmentMatches } from './paths.ts';

const bases = { cwd: '/p/sub', projectRoot: '/p', home: '/home/ana' };

describe('[G1] gitignore-style path rules', () => {
  it('[G1] the four anchors: //absolute, ~/home, /project root, ./ or bare from the working folder', () => {
    expect(absolutePattern('//etc/**', bases)).toBe('/etc/**');
    expect(absolutePattern('~/.ssh/*', bases)).toBe('/home/ana/.ssh/*');
    expect(absolutePattern('/src/**', bases)).toBe('/p/src/**');
    expect(absolutePattern('./a/b', bases)).toBe('/p/sub/a/b');
    expect(absolutePattern('a/b', bases)).toBe('/p/sub/a/b');
    expect(absolutePattern('*.env', bases)).toBe('/p/sub/**/*.env');
    expect(absolutePattern('./x', { projectRoot: '/p' })).toBeNull();
  });
  it('[G1] * and ? stay within a segment; ** spans any depth, also none', () => {
    expect(segmentMatches('*.ts', 'a.ts')).toBe(true);
    expect(segmentMatches('a?c', 'abc')).toBe(true);
    expect(segmentMatches('a?c', 'ac')).toBe(false);
    expect(globMatches('/p/*/x', '/p/a/x')).toBe(true);
    expect(globMatches('/p/*/x', '/p/a/b/x')).toBe(false);
    expect(globMatches('/p/**/x', '/p/x')).toBe(true);
    expect(globMatches('/p/**/x', '/p/a/b/x')).toBe(true);
    expect(globMatches('/p/docs', '/p/docs/a/b.md')).toBe(true);
    expect(globMatches('/p/*.md', '/p/a.md/inner')).toBe(false);
  });
  it('[G1] the request path is resolved before matching (.., ~, relative to the working folder)', () => {
    expect(requestPath({ file_path: '../src/../x.ts' }, bases)).toBe('/p/x.ts');
    expect(requestPath({ file_path: '~/notes' }, bases)).toBe('/home/ana/notes');
    expect(requestPath({ notebook_path: '/p/n.ipynb' }, bases)).toBe('/p/n.ipynb');
    expect(requestPath({ path: 'src' }, bases)).toBe('/p/sub/src');
    expect(requestPath({ file_path: 7 }, bases)).toBeNull();
    expect(requestPath({ file_path: 'rel' }, {})).toBeNull();
  });
});
