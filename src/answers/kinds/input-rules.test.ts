import { describe, expect, it } from 'vitest';
import { checkInput } from './input-rules.ts';

describe('an input question checks its value by its type (Q12)', () => {
  it('[Q12] takes each type in its own spelling and names the rule a value breaks', () => {
    expect(checkInput({ type: 'number', minimum: 0.5 }, '+2.5')).toEqual({ ok: true, value: '2.5' });
    expect(checkInput({ type: 'number', minimum: 0.5 }, '0.1')).toEqual({ ok: false, problem: 'must be at least 0.5 (minimum)' });
    expect(checkInput({ type: 'number' }, 'ten')).toEqual({ ok: false, problem: 'must be a number (number)' });
    expect(checkInput({ type: 'integer' }, '2.5')).toEqual({ ok: false, problem: 'must be a whole number (integer)' });
    expect(checkInput({ type: 'boolean' }, 'No')).toEqual({ ok: true, value: 'false' });
    expect(checkInput({ type: 'date-time' }, '2026-12-31T09:30:00Z')).toEqual({ ok: true, value: '2026-12-31T09:30:00Z' });
    expect(checkInput({ type: 'date-time' }, '2026-12-31')).toMatchObject({ ok: false });
    expect(checkInput({ type: 'email' }, 'ops@example.com')).toEqual({ ok: true, value: 'ops@example.com' });
    expect(checkInput({ type: 'email' }, 'ops@example')).toEqual({ ok: false, problem: 'must be an email address (email)' });
    expect(checkInput({ type: 'uri' }, 'https://example.com/a')).toEqual({ ok: true, value: 'https://example.com/a' });
    expect(checkInput({ type: 'uri' }, 'example dot com')).toMatchObject({ ok: false });
    expect(checkInput({ type: 'string', minLength: 3 }, 'ab')).toEqual({ ok: false, problem: 'must be at least 3 characters (minLength)' });
    expect(checkInput({ type: 'string', maxLength: 2 }, '🙂🙂')).toEqual({ ok: true, value: '🙂🙂' });
    expect(checkInput({ type: 'string', enum: ['Red', 'Blue'] }, 'blue')).toEqual({ ok: true, value: 'Blue' });
    expect(checkInput({ type: 'string', enum: ['Red', 'Blue'] }, 'Green')).toEqual({ ok: false, problem: 'must be one of Red, Blue (enum)' });
  });
});
