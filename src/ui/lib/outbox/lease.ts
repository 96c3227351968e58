import { transition, type OutboxRow } from './machine.ts';

/*
 * The send lease across tabs (PRODUCT U11): the tab that sends a row writes its id and an expiry into the stored row,
 * in the same IndexedDB transaction that reads it, so two tabs can never both claim it. A tab that goes away mid-send
 * stops renewing and its claim runs out. (The lease lives in the row rather than in a Web Lock because the claim must
 * be read together with the row's state, and must hold where the Web Locks API is missing.)
 */

export const DEFAULT_LEASE_MS = 10_000;

export const leasedByOther = (row: OutboxRow, tabId: string, at: number) =>
  row.sendingBy !== undefined && row.sendingBy !== tabId && (row.leaseExpiresAtMs ?? 0) > at;

/** The row without this tab's claim (the same object when this tab holds none). */
export function released(row: OutboxRow, tabId: string): OutboxRow {
  if (row.sendingBy !== tabId) return row;
  const { sendingBy: _by, leaseExpiresAtMs: _until, ...rest } = row;
  return rest;
}

/** The stored row claimed by this tab and moved to 'sending', or the same `stored` when it cannot be claimed now. */
export function claimed(stored: OutboxRow, tabId: string, at: number, leaseMs: number): OutboxRow {
  if (leasedByOther(stored, tabId, at)) return stored;
  let row = stored;
  if (row.state === 'sending') row = transition(row, { type: 'connectionLost' }, at) ?? row;
  const next = transition(row, { type: 'sendStarted' }, at);
  if (!next || next === row) return stored;
  return { ...next, sendingBy: tabId, leaseExpiresAtMs: at + leaseMs };
}

/** The stored row with this tab's claim extended (the same object when another tab holds it). */
export const renewed = (stored: OutboxRow, tabId: string, at: number, leaseMs: number): OutboxRow =>
  stored.sendingBy === tabId ? { ...stored, leaseExpiresAtMs: at + leaseMs } : stored;

export interface LeaseRenewal {
  /** Starts renewing (if not already) until `ids()` comes back empty. */
  arm(): void;
  stop(): void;
}

/** Keeps this tab's claims alive while its sends are out; other tabs take over only a claim that ran out. */
export function createLeaseRenewal(leaseMs: number, ids: () => readonly string[], renew: (id: string) => void): LeaseRenewal {
  let timer: ReturnType<typeof setInterval> | undefined;
  const stop = () => {
    clearInterval(timer);
    timer = undefined;
  };
  return {
    arm() {
      if (timer !== undefined) return;
      timer = setInterval(() => {
        const held = ids();
        if (held.length === 0) return stop();
        for (const id of held) renew(id);
      }, Math.max(50, Math.floor(leaseMs / 3)));
    },
    stop,
  };
}
