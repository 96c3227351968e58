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
