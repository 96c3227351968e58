import { describe, expect, it } from 'vitest';
import { usage } from './main.ts';

describe('askdock --help', () => {
  it('[G5][G8][G9][E10][L3][L5][L6][L7] names every subcommand the spec gives, with the flags as optional as they are', () => {
    const text = usage();
    for (const words of [
      'check -- ',
      'import claude-code|codex FILE…',
      'grants',
      'revoke ID',
      'askdock routing test [--config FILE] [--kind K] [--agent A] [--source S] [--tool RULE] [--at ISO-TIME] [--json]',
      'askdock audit verify DIR --key KEY',
      'askdock audit key',
      'askdock audit export --out DIR',
      'askdock audit acknowledge',
      'askdock secret get NAME',
    ])
      expect(text).toContain(words);
  });
});
