import { act, cleanup } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, vi } from 'vitest';
import { dockCodeReady } from '../ui/features/questions/index.tsx';
import { resetStores } from './ui-questions.tsx';

/**
 * For the dock's focus tests: frames come when the test says (`nextFrame`), so what runs in an event's own task and
 * what after its frame can be told apart. Installs its hooks: the dock's chunks in, fresh stores, the stub undone.
 */
export function dockFrames(): { nextFrame: () => Promise<void> } {
  let frames: FrameRequestCallback[] = [];
  beforeAll(() => dockCodeReady);
  beforeEach(() => {
    resetStores();
    frames = [];
    vi.stubGlobal('requestAnimationFrame', (cb: FrameRequestCallback) => frames.push(cb));
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });
  /** The next frame, then the tasks queued from it. */
  const nextFrame = () =>
    act(async () => {
      for (const frame of frames.splice(0)) frame(performance.now());
      await new Promise((resolve) => setTimeout(resolve, 0));
    });
  return { nextFrame };
}
