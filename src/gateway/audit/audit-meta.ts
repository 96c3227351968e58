import { randomBytes } from 'node:crypto';
import type { NewAuditCheckpoint } from '../store/audit-rows.ts';
import type { Store } from '../store/types.ts';
import type { Integrity } from './audit-log.ts';

/**
 * L7: the last acknowledgement, kept in the database for every gateway of it: its entry's index, the serial of the last
 * checkpoint stored before it, and a nonce of its own. The checkpoints stored after it (a larger serial) are those
 * "since the acknowledgement": the database numbers them, so no gateway's clock decides which they are. The index and
 * the serial alone do not tell two acknowledgements apart: with the first's entry deleted with the log's tail (and the
 * checkpoints since), the next is made at the same index over the same checkpoints; the nonce does.
 */
export const ACK_META = 'audit.acknowledgement';
/**
 * L7: a failed check, kept in the database for every gateway of it (the detail; empty once acknowledged): the duty
 * holder that found it stops signing, and an admin acknowledges it on any gateway.
 */
export const FAILED_META = 'audit.failedCheck';

/** `nonce` is absent from one kept before acknowledgements had one (and from NEVER). */
export type Acknowledgement = { entry: number; afterSerial: number; nonce?: string };
/** Before any acknowledgement: every checkpoint counts (serials start at 1). */
const NEVER: Acknowledgement = { entry: -1, afterSerial: 0 };

/** A new acknowledgement, unlike any other (its nonce), whatever its entry and serial. */
export const newAcknowledgement = (entry: number, afterSerial: number): Acknowledgement => ({ entry, afterSerial, nonce: randomBytes(16).toString('base64url') });

export const sameAcknowledgement = (a: Acknowledgement, b: Acknowledgement) => a.entry === b.entry && a.afterSerial === b.afterSerial && a.nonce === b.nonce;

/** The last acknowledgement; inside a transaction, on PostgreSQL, its key is locked as it is read (store getMeta). */
export async function readAcknowledgement(store: Store): Promise<Acknowledgement> {
  const saved = await store.getMeta(ACK_META);
  if (!saved) return NEVER;
  const { entry, afterSerial, nonce } = JSON.parse(saved) as Partial<Acknowledgement>;
  return { entry: Number(entry ?? -1), afterSerial: Number(afterSerial ?? 0), ...(typeof nonce === 'string' ? { nonce } : {}) };
}

export const acknowledgementValue = (ack: Acknowledgement) => JSON.stringify(ack);

/** The failed check waiting for an admin, as the database holds it; locked as read inside a transaction (PostgreSQL). */
export async function readIntegrity(store: Store): Promise<Integrity> {
  const detail = await store.getMeta(FAILED_META);
  return detail ? { ok: false, detail } : { ok: true };
}

/** What became of a checkpoint to store: kept, refused over a failed check, or refused as signed before an acknowledgement. */
export type Kept = 'stored' | 'failed' | 'overtaken';

/**
 * L2 with L7: stores a checkpoint signed under `under` in one transaction with the reads that allow it: the
 * acknowledgement, then the failed check (on PostgreSQL each key locked as read, in the order `acknowledge` and a
 * failure's record take them), so no failure another gateway records, and no acknowledgement, falls between them and the
 * insert. Run it with no transaction open (hub.quiet): then it is a transaction of its own.
 */
export async function storeCheckpoint(store: Store, c: NewAuditCheckpoint, under: Acknowledgement): Promise<Kept> {
  return store.transaction(async () => {
    if (!sameAcknowledgement(await readAcknowledgement(store), under)) return 'overtaken';
    if (!(await readIntegrity(store)).ok) return 'failed';
    await store.insertAuditCheckpoint(c);
    return 'stored';
  });
}
