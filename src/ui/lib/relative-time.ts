import { useSyncExternalStore } from 'react';
import { dayText, fullTimeText } from '../../lib/clock-text.ts';
import { Listeners } from '../../lib/listeners.ts';

/** "just now", "2 min ago", "3 h ago", "yesterday", then the date: how long ago, in words a person reads at a glance. */
export function relativeTime(ms: number, nowMs: number): string {
  const seconds = Math.round((nowMs - ms) / 1000);
  if (seconds < 45) return 'just now';
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 24) return `${hours} h ago`;
  const days = Math.floor((startOfDay(nowMs) - startOfDay(ms)) / 86_400_000);
  if (days === 1) return 'yesterday';
  return dayText(ms);
}

/** The exact time, for a hover title beside a relative one: `Dec 6, 2026, 18:08`, in every time's one clock. */
export const exactTime = (ms: number): string => fullTimeText(ms);

function startOfDay(ms: number): number {
  const d = new Date(ms);
  d.setHours(0, 0, 0, 0);
  return d.getTime();
}

// One clock for every relative time on the page, ticking twice a minute: hundreds of rows, one timer.
const listeners = new Listeners();
let now = Date.now();
let timer: ReturnType<typeof setInterval> | undefined;
function subscribe(listener: () => void) {
  const off = listeners.add(listener);
  if (!timer) {
    now = Date.now();
    timer = setInterval(() => {
      now = Date.now();
      listeners.emit();
    }, 30_000);
  }
  return () => {
    off();
    if (!listeners.size && timer) {
      clearInterval(timer);
      timer = undefined;
    }
  };
}

/** The shared half-minute clock. */
export function useMinuteClock(): number {
  return useSyncExternalStore(subscribe, () => now, () => now);
}
