import { describe, expect, it } from 'vitest';
import { bind, splitStatements } from './sql-split.ts';

describe('[D5] the database client bench reads the engine\'s queries back as statements and parameters', () => {
  it('[D5] splits a query at its top-level semicolons only', () => {
    expect(splitStatements(`BEGIN; SELECT 'a;b', 'it''s; here'; EXECUTE askdock_s1('x');`)).toEqual(['BEGIN', `SELECT 'a;b', 'it''s; here'`, `EXECUTE askdock_s1('x')`]);
  });

  it('[D5] an EXECUTE becomes its prepared text with the literals as values; anything else stays as it is', () => {
    const prepares = new Map([['askdock_s3', 'SELECT $1, $2, $3']]);
    expect(bind(`EXECUTE askdock_s3('a''b', NULL,  E'c\\\\d')`, prepares)).toEqual({ sql: 'SELECT $1, $2, $3', params: ["a'b", null, 'c\\d'], prepared: true });
    expect(bind('EXECUTE askdock_s3', prepares)).toEqual({ sql: 'SELECT $1, $2, $3', params: [], prepared: true });
    expect(bind('COMMIT', prepares)).toEqual({ sql: 'COMMIT', params: [], prepared: false });
    expect(() => bind(`EXECUTE askdock_s9('x')`, prepares)).toThrow(/askdock_s9/);
  });
});
