import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

describe('the protocol modules the Control UI loads first', () => {
  it('rules.ts, askdock-error.ts and version.ts import no schema library, only types', () => {
    for (const file of ['rules.ts', 'askdock-error.ts', 'version.ts']) {
      const source = readFileSync(new URL(`./${file}`, import.meta.url), 'utf8');
      const imports = [...source.matchAll(/^import\s+(type\s+)?[^;]*?from\s+'([^']+)'/gm)];
      for (const [line, typeOnly] of imports) expect(typeOnly, `${file}: ${line}`).toBeDefined();
    }
  });
});
