import { describe, expect, it } from 'vitest';
import { readPolicyNotice } from './policy-notice.ts';

describe('[G6] reading the notice of a decided approval', () => {
  it('[G6] reads the outcome, the request and the rule or grant that decided it', () => {
    expect(readPolicyNotice('✓ Allowed Bash(npm run test) · rule npm-tests')).toEqual({
      outcome: 'allowed',
      request: 'Bash(npm run test)',
      parts: [{ words: 'rule', id: 'npm-tests' }],
    });
    expect(readPolicyNotice('✕ Denied Bash(rm -rf /) · rule no-rm')).toEqual({ outcome: 'denied', request: 'Bash(rm -rf /)', parts: [{ words: 'rule', id: 'no-rm' }] });
    expect(readPolicyNotice('✓ Allowed Bash(npm run test) · grant g_7 · by ana')?.parts).toEqual([{ words: 'grant', id: 'g_7' }, { words: 'by ana' }]);
    expect(readPolicyNotice('✕ Denied mcp__github__create_issue')).toEqual({ outcome: 'denied', request: 'mcp__github__create_issue', parts: [] });
  });

  it('[G6] other system text is no notice: a plain line, a lookalike word, several lines', () => {
    expect(readPolicyNotice('Run cancelled')).toBeNull();
    expect(readPolicyNotice('Allowed Bash(ls) · rule x')).toBeNull();
    expect(readPolicyNotice('✓ Allowedness')).toBeNull();
    expect(readPolicyNotice('✓ Allowed Bash(ls)\nand more')).toBeNull();
  });
});
