import type { StoredEvent } from './types-records.ts';

/**
 * One lane's transactions and group (`transaction` inside a running unit nests in that unit's, whatever its lane): the
 * Store's own four methods of that name, which every Store is.
 */
export interface LaneStore {
  transaction<T>(fn: () => Promise<T> | T): Promise<T>;
  beginGroup(): Promise<void>;
  commitGroup(): Promise<void>;
  rollbackGroup(): Promise<void>;
  /** A unit of the open group waits for a lock another gateway's transaction holds (default: never known). */
  waitsForLock?(): boolean;
  /** The open group holds the lock a unit of it asked for (default: never known). */
  holdsLock?(): boolean;
  /** The open group can no longer be kept (its connection gone, or lost): a unit must not join it (default: never). */
  doomed?(): boolean;
}

/**
 * What a database several gateways share can do, declared by its store; a single gateway's store leaves each out, and
 * the default (named on each) is what a single gateway does. Only where the gateway is assembled asks which engine runs.
 */
/**
 * A commit's events as its notice carries them. Its seqs (`first` to the notice's seq, holes left by pruning aside) are
 * known before anything is parsed: a gateway that knows them all already (its own commit, answered first) reads no more.
 */
export type ToldCommit = {
  readonly first: number;
  /** The events, parsed now (undefined when the notice cannot be read: then they are read from the database). */
  events(): ToldEvent[] | undefined;
};

/** A told event, with its payload's JSON as stored when a frame may carry that text as it is (else undefined). */
export type ToldEvent = { ev: StoredEvent; text: string | undefined };

export interface SharedCapabilities {
  /** Other gateways commit to this store too (default: none does, so this gateway's own writes are all there is). */
  readonly shared?: true;
  /** How many lanes: transactions of one gateway open side by side, each with its own group of units (D5; default: one, the store itself). */
  readonly lanes?: number;
  lane?(i: number): LaneStore;
  /**
   * Runs `fn(seq, told)` for each commit of any gateway (`seq` its last one, `told` what it committed when the notice
   * could carry it), and `fn(null)` when notices may have been missed (default: no notices).
   */
  onCommitted?(fn: (seq: number | null, told?: ToldCommit) => void): () => void;
  /** Runs `fn` with its reads taking what is committed now, not waiting for this gateway's open transactions (default: `fn()`). */
  readCommitted?<T>(fn: () => Promise<T>): Promise<T>;
  /**
   * Runs `fn` with its reads outside a transaction waiting for what `before` returns instead of this gateway's open
   * transactions (default: `fn()`, every read sees this gateway's own writes).
   */
  readsAfter?<T>(before: () => Promise<unknown> | null, fn: () => T): T;
  /**
   * Inside a transaction: a provisional seq for a message about to be written in it, kept for that message's `chat`
   * event, which carries it whatever other events are held meanwhile (the real one is given at commit, D2); null
   * outside one (default: none, the next seq is the latest one's successor).
   */
  reserveSeq?(): number | null;
  /** The real seq of a provisional one, once its transaction committed (default: seqs are real when handed out). */
  settledSeq?(seq: number): number;
  /** The session of a question as committed, without waiting for open transactions (default: none asked; lanes are one). */
  questionSession?(id: string): Promise<string | null>;
  /** True when `err` undid a unit to break a deadlock, so it runs again in the lane's next group (default: never). */
  mustRetry?(err: unknown): boolean;
}

/** The store of each lane: the store itself unless it declares lanes. */
export function laneStores(store: LaneStore & SharedCapabilities): LaneStore[] {
  const { lanes, lane } = store;
  return lanes !== undefined && lane ? Array.from({ length: lanes }, (_, i) => lane.call(store, i)) : [store];
}
