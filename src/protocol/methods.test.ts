import { describe, expect, it } from 'vitest';
import { METHOD_NAMES } from './methods.ts';
import { isResendable } from './rules.ts';

describe('the method table', () => {
  it('[P7] reads, keyed writes and record-state-idempotent methods may be resent after a reconnect; the rest may not', () => {
    const resendable = METHOD_NAMES.filter(isResendable);
    expect(resendable).toEqual(expect.arrayContaining(['chat.send', 'chat.history', 'question.resolve', 'question.get', 'question.list', 'question.waitAnswer']));
    for (const once of ['run.start', 'chat.inject', 'run.end', 'question.request', 'chat.abort'] as const) expect(isResendable(once)).toBe(false);
  });
});
