import { describe, expect, it } from 'vitest';
import type { WebSocket } from 'ws';
import { FrameGate } from './frame-gate.ts';
import { TurnBudget } from './turn-budget.ts';

/** A socket that only records whether it is paused (the gate pauses it while frames wait). */
function fakeSocket() {
  const socket = { paused: false, pause: () => void (socket.paused = true), resume: () => void (socket.paused = false) };
  return socket;
}

/** Gates on one budget; each handled frame is recorded with the turn it was handled in. */
function gates(count: number, budget: TurnBudget) {
  const handled: { gate: number; frame: string; turn: number }[] = [];
  const sockets = Array.from({ length: count }, fakeSocket);
  const list = sockets.map(
    (socket, gate) =>
      new FrameGate({ burst: 1_000_000, perSecond: 1_000_000 }, socket as unknown as WebSocket, 64 * 1024 * 1024, (data) => {
        handled.push({ gate, frame: data.toString(), turn: budget.ended });
      }, () => {
        throw new Error('no flood expected');
      }, budget),
  );
  return { handled, sockets, list };
}

const nextTurn = () => new Promise<void>((ok) => setImmediate(ok));
async function untilHandled(handled: unknown[], total: number): Promise<void> {
  for (let i = 0; i < 10_000 && handled.length < total; i++) await nextTurn();
}
/** Per turn that handled frames, in order: the sum of `size` over its frames. */
function perTurn(handled: { frame: string; turn: number }[], size: (frame: string) => number = () => 1): number[] {
  const sums = new Map<number, number>();
  for (const h of handled) sums.set(h.turn, (sums.get(h.turn) ?? 0) + size(h.frame));
  return [...sums.values()];
}

describe('S5 frame work per event-loop turn', () => {
  it('[S5] frames read at once from several sockets are handled at most FRAMES_PER_TURN per turn, all of them, each socket in order', async () => {
    const budget = new TurnBudget(8, 1_000_000);
    const { handled, sockets, list } = gates(3, budget);
    // As one read of each socket delivers them: 40 frames each, in the same turn.
    for (let i = 0; i < 40; i++) list.forEach((gate) => gate.offer(Buffer.from(`f${i}`), false));
    expect(handled.length).toBe(8);
    expect(sockets.every((s) => s.paused)).toBe(true);
    await untilHandled(handled, 120);
    expect(handled).toHaveLength(120);
    expect(Math.max(...perTurn(handled))).toBeLessThanOrEqual(8);
    for (let gate = 0; gate < 3; gate++) {
      expect(handled.filter((h) => h.gate === gate).map((h) => h.frame)).toEqual(Array.from({ length: 40 }, (_, i) => `f${i}`));
    }
    expect(sockets.some((s) => s.paused)).toBe(false);
  });

  it('[S5] a turn handles at most FRAME_BYTES_PER_TURN of frames; a larger frame alone still goes, in a turn of its own', async () => {
    const budget = new TurnBudget(1_000, 1_000);
    const { handled, list } = gates(1, budget);
    for (let i = 0; i < 10; i++) list[0].offer(Buffer.alloc(300, 'a'), false);
    list[0].offer(Buffer.alloc(5_000, 'b'), false);
    list[0].offer(Buffer.alloc(300, 'c'), false);
    expect(handled.length).toBe(3);
    await untilHandled(handled, 12);
    expect(perTurn(handled, (frame) => frame.length)).toEqual([900, 900, 900, 300, 5_000, 300]);
  });

  it('[S5] frames that fit the budget are handled at once, with no wait for another turn', () => {
    const { handled, sockets, list } = gates(2, new TurnBudget(8, 1_000_000));
    for (let i = 0; i < 4; i++) list.forEach((gate) => gate.offer(Buffer.from(`f${i}`), false));
    expect(handled).toHaveLength(8);
    expect(sockets.some((s) => s.paused)).toBe(false);
  });
});
