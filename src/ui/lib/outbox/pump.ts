import type { GatewayClient } from '../../../client/client.ts';
import { backoffDelay } from '../../../lib/backoff.ts';
import type { ParamsInput } from '../../../protocol/index.ts';
import type { Committer } from './commit.ts';
import { claimed, createLeaseRenewal, leasedByOther, renewed } from './lease.ts';
import type { OutboxError, OutboxRow } from './machine.ts';
import { messageConfirmsRow, sendErrorOf } from './send-outcome.ts';

const HISTORY_LOOKUP_LIMIT = 200;

export type PumpOptions = Committer & {
  client: Pick<GatewayClient, 'request' | 'onState' | 'state'>;
  rows: () => readonly OutboxRow[];
  tabId: string;
  leaseMs: number;
  now: () => number;
  onError: (error: unknown) => void;
};

export interface Pump {
  /** Runs a sending pass (or one more after the running one); resolves when that pass has started its sends. */
  schedule(): Promise<void>;
  /** Forgets the row's send: a send still out is dropped, and it may go again at once. */
  stop(id: string): void;
  /** Stops listening and sending; sends still out keep their lease until it runs out, then go again elsewhere. */
  dispose(): void;
}

/**
 * Sends rows whenever the client is connected: one at a time per session, oldest first, each under this tab's lease,
 * always with the row's own idempotency key, and stores every outcome through the state machine.
 */
export function createPump(options: PumpOptions): Pump {
  const { client, tabId, leaseMs, now, onError, commit, dispatch } = options;
  const inFlight = new Map<string, { abort: AbortController }>();
  /** The connection on which an unconfirmed row was last re-sent on its own, so it is tried once per connection. */
  const autoTried = new Map<string, number>();
  /** Retryable refusals (RATE_LIMITED) wait until then. */
  const notBefore = new Map<string, number>();
  let connected = client.state.status === 'connected';
  let epoch = connected ? 1 : 0;
  let disposed = false;
  let pumping: Promise<void> | null = null;
  let pumpAgain = false;
  let wakeTimer: ReturnType<typeof setTimeout> | undefined;
  const renewal = createLeaseRenewal(
    leaseMs,
    () => [...inFlight.keys()],
    (id) => void commit(id, (stored) => renewed(stored, tabId, now(), leaseMs), { quiet: true }).catch(onError),
  );

  function schedule(): Promise<void> {
    if (disposed) return Promise.resolve();
    if (pumping) {
      pumpAgain = true;
      return pumping;
    }
    pumping = (async () => {
      try {
        do {
          pumpAgain = false;
          await pumpOnce();
        } while (pumpAgain && !disposed);
      } catch (err) {
        onError(err);
      } finally {
        pumping = null;
      }
    })();
    return pumping;
  }

  /** The row a session sends next, or the time to look again; one at a time per session, oldest first. */
  function nextFor(rows: readonly OutboxRow[], at: number): { row?: OutboxRow; wakeAt?: number } {
    for (const row of rows) {
      if (inFlight.has(row.id)) return {};
      if (leasedByOther(row, tabId, at)) return { wakeAt: row.leaseExpiresAtMs };
      if (row.state === 'queued') {
        const wait = notBefore.get(row.id);
        return wait !== undefined && wait > at ? { wakeAt: wait } : { row };
      }
      // A 'sending' row nobody holds is a send whose tab went away: its outcome is unknown, so it goes again.
      if (row.state === 'sending') return { row };
      if (row.state === 'unconfirmed' && autoTried.get(row.id) !== epoch) return { row };
    }
    return {};
  }

  async function pumpOnce() {
    clearTimeout(wakeTimer);
    if (!connected || disposed) return;
    const at = now();
    const sessions = new Map<string, OutboxRow[]>();
    for (const row of options.rows()) {
      if (row.state === 'sent' || row.state === 'failed') continue;
      const list = sessions.get(row.sessionKey) ?? [];
      list.push(row);
      sessions.set(row.sessionKey, list);
    }
    let wakeAt = Infinity;
    for (const rows of sessions.values()) {
      const next = nextFor(rows, at);
      if (next.wakeAt !== undefined) wakeAt = Math.min(wakeAt, next.wakeAt);
      if (next.row) await startSend(next.row);
    }
    if (wakeAt !== Infinity && !disposed) wakeTimer = setTimeout(() => void schedule(), Math.max(0, wakeAt - now()) + 5);
  }

  /** Claims the row's send lease in storage (so no other tab sends it), then sends it. */
  async function startSend(candidate: OutboxRow) {
    const { after } = await commit(candidate.id, (stored) => claimed(stored, tabId, now(), leaseMs));
    if (!after || after.state !== 'sending' || after.sendingBy !== tabId || inFlight.has(after.id) || disposed) return;
    // An uncertain row goes again on its own once per connection, never in a loop.
    autoTried.set(after.id, epoch);
    send(after);
  }

  function send(row: OutboxRow) {
    const abort = new AbortController();
    inFlight.set(row.id, { abort });
    renewal.arm();
    const params: ParamsInput<'chat.send'> = {
      sessionKey: row.sessionKey,
      message: row.text,
      idempotencyKey: row.idempotencyKey,
    };
    // A chat message goes without replyTo; an answer names its question (Q9), with its structured answers while unedited.
    if (row.questionId !== undefined) params.replyTo = row.answers ? { questionId: row.questionId, answers: row.answers } : { questionId: row.questionId };
    const settle = async (work: () => Promise<unknown>) => {
      if (inFlight.get(row.id)?.abort !== abort) return; // discarded, retried or disposed meanwhile
      try {
        await work();
      } catch (err) {
        onError(err);
      }
      // Only now, with the outcome stored, may a pump look at this row again.
      if (inFlight.get(row.id)?.abort === abort) inFlight.delete(row.id);
      void schedule();
    };
    client.request('chat.send', params, { signal: abort.signal }).then(
      (result) =>
        settle(async () => {
          notBefore.delete(row.id);
          await dispatch(row.id, { type: 'sendSucceeded', messageId: result.messageId, seq: result.seq }, { release: true });
        }),
      (err: unknown) => settle(() => failed(row, err)),
    );
  }

  async function failed(row: OutboxRow, err: unknown) {
    const e = sendErrorOf(err, row.kind);
    if (e.aborted) return;
    const error: OutboxError = { code: e.code, message: e.message };
    if (e.code === 'UNAVAILABLE') {
      // The client gave up on the request (dropped, timed out, closed): it may or may not have been saved.
      autoTried.set(row.id, epoch);
      await dispatch(row.id, { type: 'connectionLost' }, { release: true });
      return;
    }
    if (e.code === 'QUESTION_ALREADY_TERMINAL' && (await foundInHistory(row))) return;
    if (e.retryable) notBefore.set(row.id, now() + (e.retryAfterMs ?? backoffDelay(row.attempts)));
    await dispatch(row.id, { type: 'sendFailed', error, retryable: e.retryable }, { release: true });
  }

  /** The question is answered already: perhaps by this very row on an earlier attempt whose result was lost. */
  async function foundInHistory(row: OutboxRow): Promise<boolean> {
    try {
      const { messages } = await client.request('chat.history', { sessionKey: row.sessionKey, limit: HISTORY_LOOKUP_LIMIT });
      const match = messages.find((m) => messageConfirmsRow(row, m));
      if (!match) return false;
      await dispatch(row.id, { type: 'confirmedByHistory', messageId: match.id }, { release: true });
      return true;
    } catch {
      return false;
    }
  }

  const offState = client.onState((state) => {
    const isConnected = state.status === 'connected';
    if (isConnected && !connected) {
      connected = true;
      epoch++;
      void schedule();
    } else if (!isConnected && connected) {
      connected = false;
      // Sends still out may have reached the gateway; the client re-sends chat.send itself once it is back.
      for (const id of inFlight.keys()) void dispatch(id, { type: 'connectionLost' }).catch(onError);
    }
  });

  return {
    schedule,
    stop(id) {
      inFlight.get(id)?.abort.abort();
      inFlight.delete(id);
      autoTried.delete(id);
      notBefore.delete(id);
    },
    dispose() {
      disposed = true;
      offState();
      clearTimeout(wakeTimer);
      renewal.stop();
      inFlight.clear();
    },
  };
}
