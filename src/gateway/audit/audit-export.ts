import { randomBytes } from 'node:crypto';
import { AUDIT_EXPORT_CHUNK, AskdockError, type Params, type Result } from '../../protocol/index.ts';
import { AuditEntry, buildExport, entryLine, FILES, MerkleTree, type ExportFiles } from '../../audit/index.ts';
import { entriesCsv } from '../../audit/csv.ts';
import type { Identity } from '../auth.ts';
import type { RoomParts } from '../sessions/room-parts.ts';
import type { AuditLog } from './audit-log.ts';

/** An export is kept this long for its pages. */
const KEEP_MS = 10 * 60_000;

type Kept = { owner: string; files: [string, string][]; atMs: number };

/**
 * L5/L9: `audit.export`, paged: the first call builds every file from one view of the log (after a fresh checkpoint);
 * the next calls read them on by file and offset. Only the identity that started an export reads its pages.
 */
export class AuditExports {
  private readonly kept = new Map<string, Kept>();

  constructor(
    private readonly parts: RoomParts,
    private readonly log: AuditLog,
    private readonly signNow: () => Promise<string | null>,
    /** L7: when an admin last acknowledged a failed check (0 when never). */
    private readonly acknowledgedAtMs: () => Promise<number>,
  ) {}

  async page(identity: Identity, p: Params<'audit.export'>): Promise<Result<'audit.export'>> {
    const now = this.parts.clock.now();
    for (const [id, k] of this.kept) if (now - k.atMs > KEEP_MS) this.kept.delete(id);
    if (p.exportId === undefined) {
      const exportId = randomBytes(12).toString('base64url');
      this.kept.set(exportId, { owner: identity.id, files: [...(await this.build(p, now))], atMs: now });
      return this.read(exportId, this.kept.get(exportId)!, undefined, 0);
    }
    const k = this.kept.get(p.exportId);
    if (!k || k.owner !== identity.id) throw new AskdockError('INVALID_REQUEST', `audit.export: exportId "${p.exportId}" is unknown or has expired; start the export again`);
    return this.read(p.exportId, k, p.file, p.offset ?? 0);
  }

  private read(exportId: string, k: Kept, file: string | undefined, offset: number): Result<'audit.export'> {
    const at = file === undefined ? 0 : k.files.findIndex(([name]) => name === file);
    if (at < 0) throw new AskdockError('INVALID_REQUEST', `audit.export: file "${file}" is not part of this export`);
    const [name, text] = k.files[at];
    if (offset > text.length) throw new AskdockError('INVALID_REQUEST', `audit.export: offset ${offset} is past the end of ${name}`);
    const end = Math.min(text.length, offset + AUDIT_EXPORT_CHUNK);
    const next = end < text.length ? { file: name, offset: end } : at + 1 < k.files.length ? { file: k.files[at + 1][0], offset: 0 } : null;
    return { exportId, files: k.files.map(([n, t]) => ({ name: n, length: t.length })), file: name, offset, data: text.slice(offset, end), next };
  }

  private async build(p: Params<'audit.export'>, now: number): Promise<ExportFiles> {
    if (!this.log.signed && !p.unsigned)
      throw new AskdockError('INVALID_REQUEST', 'audit.export: the audit log is unsigned (no usable key, L8): export it only with --unsigned');
    if (this.log.signed) await this.signNow();
    const acknowledgedAtMs = await this.acknowledgedAtMs();
    const tree = await this.log.current();
    // The checkpoints of the log as it stands, one chain (each signed extends the last since the acknowledgement):
    // those an acknowledgement set aside may be over other entries, or more than the log holds since.
    const checkpoints = (await this.parts.store.auditCheckpoints()).filter((c) => c.signedAtMs >= acknowledgedAtMs && c.size <= tree.size);
    // The last of them, in size and so in the order signed: the one the export's entries are proved against.
    const last = checkpoints.at(-1);
    const size = last ? last.size : tree.size;
    const chosen = (await this.parts.store.auditLines(0, size))
      .map((r) => AuditEntry.parse(JSON.parse(r.line)))
      .filter((e) => (p.since === undefined || e.atMs >= p.since) && (p.until === undefined || e.atMs <= p.until))
      .filter((e) => (p.sessionKey === undefined || e.sessionKey === p.sessionKey) && (p.agentId === undefined || e.agentId === p.agentId));
    // An answer kept for an entry of its question that records answers: one left behind by a row deleted before an
    // acknowledgement (L7) belongs to no entry now, even where a later entry took its index.
    const wanted = new Map(chosen.filter((e) => e.answersDigest !== undefined).map((e) => [e.index, e.questionId]));
    const answers = p.redact === 'answers' ? [] : (await this.parts.store.auditAnswers(0, size)).filter((a) => wanted.get(a.entryIndex) === a.questionId);
    if (!this.log.signed || !this.log.keys) return unsignedFiles(chosen, p.format);
    const filter = { ...(p.since !== undefined ? { since: p.since } : {}), ...(p.until !== undefined ? { until: p.until } : {}), ...(p.sessionKey ? { sessionKey: p.sessionKey } : {}), ...(p.agentId ? { agentId: p.agentId } : {}) };
    const sized = size === tree.size ? tree : new MerkleTree(Array.from({ length: size }, (_, i) => tree.leaf(i)));
    return buildExport({
      origin: this.log.origin,
      tree: sized,
      entries: chosen,
      checkpoints: checkpoints.map((c) => c.note),
      keys: this.log.keys,
      signer: this.log.keys[this.log.keys.length - 1],
      answers,
      filter,
      ...(p.redact ? { redact: p.redact } : {}),
      ...(p.format ? { format: p.format } : {}),
      createdAtMs: now,
    });
  }
}

/** L8 with --unsigned: the entries (and a table) with nothing signed; `askdock audit verify` cannot vouch for them. */
function unsignedFiles(entries: AuditEntry[], format: 'csv' | undefined): ExportFiles {
  const files: ExportFiles = new Map([[FILES.entries, entries.map((e) => entryLine(e) + '\n').join('')]]);
  if (format === 'csv') files.set(FILES.csv, entriesCsv(entries));
  return files;
}
