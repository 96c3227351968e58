import * as z from 'zod';

/** L4/L9: a receipt, a compact JWS (EdDSA): three base64url parts. */
export const Receipt = z.string().regex(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/, { error: 'receipt must be a compact JWS' });

const count = z.number({ error: 'must be a number' }).int({ error: 'must be an integer' }).nonnegative({ error: 'must be 0 or more' });
const filterKey = z.string().min(1).max(128);

/** L9: `audit.checkpoint {sign?}`: the newest signed note; `sign:true` signs one now (L3). Null while none is signed (or unsigned, L8). */
export const AuditCheckpointParams = z.object({ sign: z.boolean({ error: 'sign must be a boolean' }).optional() }).strict();
export const AuditCheckpointResult = z.object({
  checkpoint: z.string().nullable(),
  treeSize: count,
  unsigned: z.boolean().optional(),
  /** L7: the last self-check (admins): `ok:false` holds the signing until `audit.acknowledge`. */
  integrity: z.object({ ok: z.boolean(), detail: z.string().optional() }).optional(),
});

/** L9: `audit.proof {index, size?}`: the inclusion proof of entry `index` in the tree of `size` (the newest checkpoint's size by default). */
export const AuditProofParams = z.object({ index: count, size: count.optional() }).strict();
export const AuditProofResult = z.object({ index: count, treeSize: count, inclusion: z.array(z.string()), checkpoint: z.string().nullable() });

/**
 * L5/L9: the export, paged. The first call (no `exportId`) signs a fresh checkpoint, builds every file at once (one
 * consistent view of the log) and answers the first chunk; the CLI then asks for `next` until it is null and writes
 * the files itself. An export is kept a few minutes for its pages, for the identity that started it only.
 */
export const AUDIT_EXPORT_CHUNK = 256 * 1024;
export const AuditExportParams = z
  .object({
    since: count.optional(),
    until: count.optional(),
    sessionKey: filterKey.optional(),
    agentId: filterKey.optional(),
    redact: z.literal('answers', { error: 'redact must be "answers"' }).optional(),
    format: z.literal('csv', { error: 'format must be "csv"' }).optional(),
    /** L8: export an unsigned log (no checkpoints, no manifest signature) only when asked for. */
    unsigned: z.boolean().optional(),
    /** Pages after the first: the export and the place to read on from. */
    exportId: z.string().min(1).max(64).optional(),
    file: z.string().min(1).max(64).optional(),
    offset: count.optional(),
  })
  .strict();
export const AuditExportResult = z.object({
  exportId: z.string(),
  /** Every file of the export, with its length in characters, so the CLI knows what it will write. */
  files: z.array(z.object({ name: z.string(), length: count })),
  file: z.string(),
  offset: count,
  data: z.string(),
  next: z.object({ file: z.string(), offset: count }).nullable(),
  /**
   * L7: the failed self-check no admin has acknowledged yet, when there is one: no fresh checkpoint was signed, and the
   * export holds the entries as stored against the checkpoints as signed (`askdock audit verify` names where they part).
   */
  failedCheck: z.string().optional(),
  /**
   * L5 with `agentId`: how many entries in range belong to a question whose asker the log does not record (its
   * `question.asked` entry is not in it); they were picked by the agentId they carry, which older entries hold as an
   * approval's kind or not at all, so the export may miss or hold some of them wrongly.
   */
  agentUnknown: count.optional(),
});

/** L7: an admin acknowledges a failed self-check; itself an entry. */
export const AuditAcknowledgeParams = z.object({ note: z.string().max(500).optional() }).strict();
export const AuditAcknowledgeResult = z.object({
  acknowledged: z.boolean(),
  entryIndex: count.optional(),
  /**
   * The indexes whose rows were missing (`"2,5-7"`), each now an `audit.lost` entry; absent when none was. At most the
   * first 100 runs are listed: `lostCount` counts every lost index, `lostRuns` (only when more were than are listed) the runs.
   */
  lost: z.string().optional(),
  lostCount: count.optional(),
  lostRuns: count.optional(),
});

/** L7/L8: the log's state as admins see it. */
export const AuditIntegrity = z.object({ ok: z.boolean(), detail: z.string().optional(), unsigned: z.boolean().optional() });
