import { describe, expect, it } from 'vitest';
import { ClientFrame, plainRequestFrame } from './frames.ts';

const long = 'x'.repeat(129);
const frames: unknown[] = [
  { type: 'req', id: '1', method: 'question.get', params: { id: 'q_1' } },
  { type: 'req', id: '1', method: 'sessions.list' },
  { type: 'req', id: '1', method: 'sessions.list', params: null },
  { type: 'req', id: 'x'.repeat(128), method: 'm'.repeat(128), extra: 'dropped', params: [1, 2] },
  { type: 'req', id: '', method: 'sessions.list' },
  { type: 'req', id: long, method: 'sessions.list' },
  { type: 'req', id: '1', method: '' },
  { type: 'req', id: '1', method: long },
  { type: 'req', id: 7, method: 'sessions.list' },
  { type: 'req', method: 'sessions.list' },
  { type: 'req', id: '1' },
  { type: 'cancel', id: '1' },
  { type: 'res', id: '1', ok: true },
  { id: '1', method: 'sessions.list' },
  [{ type: 'req', id: '1', method: 'sessions.list' }],
  null,
  'req',
  42,
];

describe('plainRequestFrame', () => {
  it('[P2] reads a well-formed request exactly as ClientFrame does, and leaves every other frame to ClientFrame', () => {
    for (const raw of frames) {
      const plain = plainRequestFrame(raw);
      const parsed = ClientFrame.safeParse(raw);
      if (plain) expect(parsed.success && parsed.data, JSON.stringify(raw)).toStrictEqual(plain);
      else expect(parsed.success && parsed.data.type === 'req', JSON.stringify(raw)).toBe(false);
    }
    // The well-formed ones take the fast path.
    expect(frames.slice(0, 4).every((raw) => plainRequestFrame(raw) !== null)).toBe(true);
  });
});
