// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AFTER_PAINT_LATEST_MS, afterNextPaint, afterNextPaintOrLeave } from './after-paint.ts';

describe('afterNextPaint', () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('runs after the next frame, once', () => {
    vi.useFakeTimers();
    const frames: FrameRequestCallback[] = [];
    vi.stubGlobal('requestAnimationFrame', (cb: FrameRequestCallback) => frames.push(cb));
    const fn = vi.fn();
    afterNextPaint(fn);
    vi.advanceTimersByTime(0);
    expect(fn).not.toHaveBeenCalled();
    frames.shift()!(0);
    expect(fn).not.toHaveBeenCalled();
    vi.advanceTimersByTime(0);
    expect(fn).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(AFTER_PAINT_LATEST_MS);
    expect(fn).toHaveBeenCalledTimes(1);
  });

  it('[U1] work put off before one frame asks for that frame once and runs in one task after it, in order', () => {
    vi.useFakeTimers();
    const frames: FrameRequestCallback[] = [];
    const raf = vi.fn((cb: FrameRequestCallback) => frames.push(cb));
    vi.stubGlobal('requestAnimationFrame', raf);
    const ran: string[] = [];
    // As a question's arrival does: the cache's notifications, the dock's storage write, the first choice's focus.
    afterNextPaint(() => ran.push('notify'));
    afterNextPaint(() => ran.push('store'));
    afterNextPaint(() => ran.push('focus'));
    expect(raf).toHaveBeenCalledTimes(1);
    frames.shift()!(0);
    // Put off after that frame's callback: waits for the frame after it.
    afterNextPaint(() => ran.push('later'));
    expect(raf).toHaveBeenCalledTimes(2);
    expect(vi.getTimerCount()).toBe(3);
    vi.advanceTimersByTime(0);
    expect(ran).toEqual(['notify', 'store', 'focus']);
    frames.shift()!(0);
    vi.advanceTimersByTime(0);
    expect(ran).toEqual(['notify', 'store', 'focus', 'later']);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('[U1] a failure in one piece of put-off work leaves the rest of its batch to run', () => {
    vi.useFakeTimers();
    const frames: FrameRequestCallback[] = [];
    vi.stubGlobal('requestAnimationFrame', (cb: FrameRequestCallback) => frames.push(cb));
    const failures: unknown[] = [];
    vi.stubGlobal('queueMicrotask', (cb: () => void) => {
      try {
        cb();
      } catch (error) {
        failures.push(error);
      }
    });
    const after = vi.fn();
    afterNextPaint(() => {
      throw new Error('broken');
    });
    afterNextPaint(after);
    frames.shift()!(0);
    vi.advanceTimersByTime(0);
    expect(after).toHaveBeenCalledTimes(1);
    expect(failures).toEqual([new Error('broken')]);
  });

  it("a batch asked through other frame and timer functions (a previous test's stubs, left waiting) is not joined", () => {
    vi.useFakeTimers();
    vi.stubGlobal('requestAnimationFrame', () => 0);
    afterNextPaint(() => {});
    // Left as it is: its frame never comes and its clock is not moved on. A new clock and new stubs, as the next test's:
    vi.useRealTimers();
    vi.unstubAllGlobals();
    vi.useFakeTimers();
    const frames: FrameRequestCallback[] = [];
    vi.stubGlobal('requestAnimationFrame', (cb: FrameRequestCallback) => frames.push(cb));
    const fn = vi.fn();
    afterNextPaint(fn);
    expect(frames).toHaveLength(1);
    frames.shift()!(0);
    vi.advanceTimersByTime(0);
    expect(fn).toHaveBeenCalledTimes(1);
  });

  it('still runs when no frame comes (the tab was hidden before its frame)', () => {
    vi.useFakeTimers();
    vi.stubGlobal('requestAnimationFrame', () => 0);
    const fn = vi.fn();
    afterNextPaint(fn);
    vi.advanceTimersByTime(AFTER_PAINT_LATEST_MS - 1);
    expect(fn).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(fn).toHaveBeenCalledTimes(1);
  });

  it('runs after a timer in a hidden tab', () => {
    vi.useFakeTimers();
    const raf = vi.fn();
    vi.stubGlobal('requestAnimationFrame', raf);
    vi.spyOn(document, 'hidden', 'get').mockReturnValue(true);
    const fn = vi.fn();
    afterNextPaint(fn);
    vi.advanceTimersByTime(0);
    expect(fn).toHaveBeenCalledTimes(1);
    expect(raf).not.toHaveBeenCalled();
  });
});

describe('afterNextPaintOrLeave', () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('runs at once when the page is left before the frame, and only then', () => {
    vi.useFakeTimers();
    const frames: FrameRequestCallback[] = [];
    vi.stubGlobal('requestAnimationFrame', (cb: FrameRequestCallback) => frames.push(cb));
    const fn = vi.fn();
    afterNextPaintOrLeave(fn);
    expect(fn).not.toHaveBeenCalled();
    dispatchEvent(new Event('pagehide'));
    expect(fn).toHaveBeenCalledTimes(1);
    frames.shift()!(0);
    vi.advanceTimersByTime(AFTER_PAINT_LATEST_MS);
    dispatchEvent(new Event('pagehide'));
    expect(fn).toHaveBeenCalledTimes(1);
  });

  it('runs after the frame when the page stays, and not again when it is left later', () => {
    vi.useFakeTimers();
    const frames: FrameRequestCallback[] = [];
    vi.stubGlobal('requestAnimationFrame', (cb: FrameRequestCallback) => frames.push(cb));
    const fn = vi.fn();
    afterNextPaintOrLeave(fn);
    frames.shift()!(0);
    vi.advanceTimersByTime(0);
    expect(fn).toHaveBeenCalledTimes(1);
    dispatchEvent(new Event('pagehide'));
    expect(fn).toHaveBeenCalledTimes(1);
  });
});
