import { describe, expect, it } from 'vitest';
import { read } from '../shape.ts';
import { OUTBOX_STATES, OutboxRow, canDiscard, canEdit, canRetry, transition, type OutboxEvent, type OutboxState } from './machine.ts';

const T0 = 1_000;
const T1 = 2_000;

function row(state: OutboxState, extra: Partial<OutboxRow> = {}): OutboxRow {
  return read(OutboxRow, {
    id: 'row-1',
    idempotencyKey: 'outbox-key-0001',
    sessionKey: 's1',
    questionId: 'q1',
    text: '> Lunch\nSushi',
    answers: { lunch: ['Sushi'] },
    state,
    createdAtMs: T0,
    updatedAtMs: T0,
    attempts: 1,
    ...(state === 'failed' ? { error: { code: 'INVALID_REQUEST', message: 'bad' } } : {}),
    ...(state === 'sent' ? { messageId: 'm0' } : {}),
    ...extra,
  })!;
}

const EVENTS: Record<string, OutboxEvent> = {
  sendStarted: { type: 'sendStarted' },
  sendSucceeded: { type: 'sendSucceeded', messageId: 'm9', seq: 9 },
  'sendFailed(retryable)': { type: 'sendFailed', error: { code: 'RATE_LIMITED', message: 'slow down' }, retryable: true },
  'sendFailed(final)': { type: 'sendFailed', error: { code: 'QUESTION_ALREADY_TERMINAL', message: 'already answered' }, retryable: false },
  connectionLost: { type: 'connectionLost' },
  retryRequested: { type: 'retryRequested' },
  edited: { type: 'edited', text: 'Sushi, no wasabi' },
  discarded: { type: 'discarded' },
  confirmedByHistory: { type: 'confirmedByHistory', messageId: 'm7' },
};

// The whole table: the state each event leads to; '-' is a no-op (the same row back), 'removed' is null.
const TABLE: Record<OutboxState, Record<keyof typeof EVENTS, OutboxState | '-' | 'removed'>> = {
  queued: {
    sendStarted: 'sending', sendSucceeded: 'sent', 'sendFailed(retryable)': '-', 'sendFailed(final)': '-', connectionLost: '-',
    retryRequested: '-', edited: 'queued', discarded: 'removed', confirmedByHistory: 'sent',
  },
  sending: {
    sendStarted: '-', sendSucceeded: 'sent', 'sendFailed(retryable)': 'queued', 'sendFailed(final)': 'failed', connectionLost: 'unconfirmed',
    retryRequested: '-', edited: '-', discarded: '-', confirmedByHistory: 'sent',
  },
  failed: {
    sendStarted: '-', sendSucceeded: 'sent', 'sendFailed(retryable)': '-', 'sendFailed(final)': '-', connectionLost: '-',
    retryRequested: 'queued', edited: 'failed', discarded: 'removed', confirmedByHistory: 'sent',
  },
  unconfirmed: {
    sendStarted: 'sending', sendSucceeded: 'sent', 'sendFailed(retryable)': 'queued', 'sendFailed(final)': 'failed', connectionLost: '-',
    retryRequested: 'queued', edited: '-', discarded: 'removed', confirmedByHistory: 'sent',
  },
  sent: {
    sendStarted: '-', sendSucceeded: '-', 'sendFailed(retryable)': '-', 'sendFailed(final)': '-', connectionLost: '-',
    retryRequested: '-', edited: '-', discarded: '-', confirmedByHistory: '-',
  },
};

describe('outbox row state machine', () => {
  const cases = OUTBOX_STATES.flatMap((state) =>
    Object.keys(EVENTS).map((name) => [state, name, TABLE[state][name]] as const),
  );

  it.each(cases)('[U9] %s --%s--> %s', (state, name, expected) => {
    const before = row(state);
    const frozen = structuredClone(before);
    const after = transition(before, EVENTS[name], T1);
    expect(before).toEqual(frozen); // pure: the input row is never changed
    if (expected === '-') expect(after).toBe(before);
    else if (expected === 'removed') expect(after).toBeNull();
    else {
      expect(after).not.toBe(before);
      expect(after!.state).toBe(expected);
      expect(after!.updatedAtMs).toBe(T1);
      expect(after!.idempotencyKey).toBe(before.idempotencyKey);
      expect(read(OutboxRow, after)).not.toBeNull();
    }
  });

  it('[U9] sendStarted counts the attempt and clears an old error', () => {
    const next = transition(row('unconfirmed', { error: { code: 'UNAVAILABLE', message: 'timed out' } }), EVENTS.sendStarted, T1)!;
    expect(next).toMatchObject({ state: 'sending', attempts: 2 });
    expect(next.error).toBeUndefined();
  });

  it('[U9] sendSucceeded keeps the messageId and seq; confirmedByHistory the messageId', () => {
    expect(transition(row('sending'), EVENTS.sendSucceeded, T1)).toMatchObject({ state: 'sent', messageId: 'm9', seq: 9 });
    expect(transition(row('unconfirmed'), EVENTS.confirmedByHistory, T1)).toMatchObject({ state: 'sent', messageId: 'm7' });
  });

  it('[U9] Failed carries the error code and message to show', () => {
    expect(transition(row('sending'), EVENTS['sendFailed(final)'], T1)!.error).toEqual({
      code: 'QUESTION_ALREADY_TERMINAL',
      message: 'already answered',
    });
  });

  it('[U9] retryRequested keeps the same idempotency key and clears the error', () => {
    const next = transition(row('failed'), EVENTS.retryRequested, T1)!;
    expect(next.idempotencyKey).toBe('outbox-key-0001');
    expect(next.error).toBeUndefined();
  });

  it('[U9][Q9] an edit replaces the text and drops the structured answers', () => {
    const next = transition(row('queued'), EVENTS.edited, T1)!;
    expect(next.text).toBe('Sushi, no wasabi');
    expect(next.answers).toBeUndefined();
  });

  it('[U9] an edit to blank or to the same text is a no-op', () => {
    const r = row('queued');
    expect(transition(r, { type: 'edited', text: '   ' }, T1)).toBe(r);
    expect(transition(r, { type: 'edited', text: r.text }, T1)).toBe(r);
  });

  it('[U9] the button rules follow the table', () => {
    const flags = (s: OutboxState) => [canRetry(row(s)), canDiscard(row(s)), canEdit(row(s))];
    expect(flags('queued')).toEqual([false, true, true]);
    expect(flags('sending')).toEqual([false, false, false]);
    expect(flags('failed')).toEqual([true, true, true]);
    expect(flags('unconfirmed')).toEqual([true, true, false]);
    expect(flags('sent')).toEqual([false, false, false]);
  });

  it('keeps the send lease fields untouched (the outbox owns them)', () => {
    const r = row('sending', { sendingBy: 'tab-a', leaseExpiresAtMs: 5_000 });
    expect(transition(r, EVENTS.connectionLost, T1)).toMatchObject({ sendingBy: 'tab-a', leaseExpiresAtMs: 5_000 });
  });
});
