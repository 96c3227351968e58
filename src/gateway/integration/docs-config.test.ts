import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { checkTokenLengths, parseConfig } from '../auth.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

function markdownFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? markdownFiles(join(dir, e.name)) : e.name.endsWith('.md') ? [join(dir, e.name)] : [],
  );
}

/** Every fenced ```json block that is a gateway config (it names `identities`), with where it starts. */
function configExamples(): { where: string; text: string }[] {
  const files = [join(ROOT, 'README.md'), ...markdownFiles(join(ROOT, 'docs'))];
  return files.flatMap((file) => {
    const lines = readFileSync(file, 'utf8').split('\n');
    const found: { where: string; text: string }[] = [];
    for (let i = 0; i < lines.length; i++) {
      if (lines[i]!.trim() !== '```json') continue;
      const start = i;
      const body: string[] = [];
      while (++i < lines.length && lines[i]!.trim() !== '```') body.push(lines[i]!);
      const text = body.join('\n');
      if (text.includes('"identities"')) found.push({ where: `${relative(ROOT, file)}:${start + 1}`, text });
    }
    return found;
  });
}

describe('config examples in the docs', () => {
  const examples = configExamples();

  it('[A1] the docs hold config examples (README, docs/channels.md, docs/deploy.md)', () => {
    const files = new Set(examples.map((e) => e.where.split(':')[0]));
    for (const file of ['README.md', 'docs/channels.md', 'docs/deploy.md']) expect([...files]).toContain(file);
  });

  it('[A1] every config example parses with the real validator, also on a gateway that listens beyond loopback', () => {
    const problems: string[] = [];
    for (const { where, text } of examples) {
      try {
        const config = parseConfig(JSON.parse(text), where);
        checkTokenLengths(config, where, false, () => {});
      } catch (err) {
        problems.push((err as Error).message);
      }
    }
    expect(problems).toEqual([]);
  });
});
