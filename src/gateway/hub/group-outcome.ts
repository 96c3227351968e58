/** What happens once a group's outcome is known: who hears of it, and who waits for several groups at once. */
import type { GatewayLog } from '../infra/logger.ts';
import type { StoredEvent } from '../store/types.ts';
import type { Listeners } from '../../lib/listeners.ts';
import { runHook, type Group } from './units.ts';

/** Once a group's events went out: its listeners, its after-hooks, then the answers that waited for it. */
export function announce(group: Group, committed: boolean, log: GatewayLog, listeners: Listeners<[StoredEvent]>): void {
  group.outcome = committed;
  if (committed) {
    // Listeners hear this gateway's own commits only, so with several gateways each event is heard once.
    listeners.each((fn) => {
      for (const ev of group.events) runHook(log, 'event listener', () => fn(ev));
    });
    for (const fn of group.after) runHook(log, 'after-commit hook', () => fn());
  }
  for (const fn of group.waiting) runHook(log, 'answer after commit', () => fn(committed));
}

/** Runs `fn(true)` once every group of `groups` was kept (at once if none is open), else `fn(false)` once all are known. */
export function whenAllKept(groups: Group[], fn: (committed: boolean) => void): void {
  let left = groups.length;
  let all = true;
  const one = (committed: boolean) => {
    all &&= committed;
    if (--left === 0) fn(all);
  };
  if (left === 0) return fn(true);
  for (const group of groups) group.outcome === undefined ? group.waiting.push(one) : one(group.outcome);
}
