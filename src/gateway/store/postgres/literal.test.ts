import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { quoteLiteral } from './literal.ts';

describe('[D5] literals written into statements that share a round trip', () => {
  it('[D5] a text is quoted exactly as pg quotes it, so every statement the engine sends reads as before', () => {
    const client = new pg.Client();
    const texts = ["it's", "''", '\\', "a\\'b", 'E', ' E\'x\'', '{"a":"b\\"c"}', 'ünïcødé ✓ 🙂', '', '$1', 'line\nbreak\ttab', "'".repeat(5), '\\\\'.repeat(3)];
    for (const text of texts) expect(quoteLiteral(text), text).toBe(client.escapeLiteral(text));
  });
});
