// @vitest-environment jsdom
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useNow } from './use-now.ts';

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.restoreAllMocks();
});

/** A clock that moves on by a millisecond at each reading (time passes while the page works), and by `ms` when told. */
function movingClock(start: number) {
  let t = start;
  vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'setTimeout', 'clearTimeout'] });
  vi.spyOn(Date, 'now').mockImplementation(() => (t += 1));
  return (ms: number) => act(() => ((t += ms), vi.advanceTimersByTime(ms)));
}

function Clock({ active, renders }: { active: boolean; renders: { count: number } }) {
  const now = useNow(active, 1000);
  renders.count++;
  return <span role="timer">{now}</span>;
}

describe('useNow (V3: the prompt shows the time remaining, every second)', () => {
  it('[V3] a countdown mounted with a question renders once, then once a second', () => {
    const pass = movingClock(1_000_000);
    const renders = { count: 0 };
    render(<Clock active renders={renders} />);
    // The time taken when the component was drawn is a millisecond old when its effect runs: no second render for it.
    expect(renders.count).toBe(1);
    const drawn = Number(screen.getByRole('timer').textContent);
    pass(1000);
    expect(renders.count).toBe(2);
    expect(Number(screen.getByRole('timer').textContent)).toBeGreaterThanOrEqual(drawn + 1000);
  });

  it('[V3] a countdown that starts after it was mounted shows the time it starts at, not the time it was drawn', () => {
    const pass = movingClock(1_000_000);
    const renders = { count: 0 };
    const { rerender } = render(<Clock active={false} renders={renders} />);
    const drawn = Number(screen.getByRole('timer').textContent);
    pass(20_000);
    rerender(<Clock active renders={renders} />);
    expect(Number(screen.getByRole('timer').textContent)).toBeGreaterThanOrEqual(drawn + 20_000);
    pass(1000);
    expect(Number(screen.getByRole('timer').textContent)).toBeGreaterThanOrEqual(drawn + 21_000);
  });
});
