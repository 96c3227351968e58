/** A lane of units of work: its store, its queue, its open group, and the Tx its units write through. */
import { events } from '../../protocol/index.ts';
import type { Clock } from '../infra/clock.ts';
import { toJson } from '../store/shape.ts';
import type { LaneStore, Store } from '../store/types.ts';
import { settled, type Changes, type Group, type Tx } from './units.ts';

/**
 * Units run one at a time per lane, each lane with its own group (transaction). One lane with SQLite and memory; on a
 * shared database several run side by side (Store.lanes), a unit's lane chosen by its key (its session), so the units
 * of one session keep their order.
 */
export type Lane = {
  store: LaneStore;
  queue: Promise<unknown>;
  grouped: Group | null;
  open: Changes | null;
  tx: Tx;
  /** Units asked for in this lane that have not ended. */
  pending: number;
  /** The open group while it takes in units past its turn's end (Commits.settle), until its commit is asked for. */
  filling: Filling | null;
};

/**
 * A group whose turn ended while units it holds still ran: `units` of those are left; `joined` units were asked for
 * since; `done` settles once the group is settled.
 */
export type Filling = { group: Group; units: number; joined: number; done: Promise<void>; ended: () => void };

export type LaneTxOptions = { store: Store; clock: Clock; checkPayloads: boolean };

export function openLane(laneStore: LaneStore, o: LaneTxOptions): Lane {
  const lane: Lane = { store: laneStore, queue: Promise.resolve(), grouped: null, open: null, tx: null as unknown as Tx, pending: 0, filling: null };
  lane.tx = txOf(lane, o);
  return lane;
}

/** Runs `fn` after the units asked for before it in this lane. */
export function inLane<T>(lane: Lane, fn: () => Promise<T> | T): Promise<T> {
  const run = lane.queue.then(fn, fn);
  lane.queue = run.then(settled, settled);
  return run;
}

function txOf(lane: Lane, o: LaneTxOptions): Tx {
  return {
    emit: async (event, payload, audience, payloadJson) => {
      const open = lane.open;
      if (!open) throw new Error('emit outside a commit');
      if (o.checkPayloads) {
        const parsed = events[event].safeParse(payload);
        if (!parsed.success) throw new Error(`event ${event} breaks its schema: ${parsed.error.message}`);
      }
      const row = { event, payload, audience, atMs: o.clock.now() };
      const json = payloadJson ?? toJson(payload);
      const seq = await o.store.appendEvent(row, json);
      open.events.push({ ...row, seq });
      open.texts.push(json);
      return seq;
    },
    after: (fn) => {
      if (!lane.open) throw new Error('after outside a commit');
      lane.open.after.push(fn);
    },
  };
}
