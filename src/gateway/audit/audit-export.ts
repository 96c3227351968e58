import { randomBytes } from 'node:crypto';
import { AUDIT_EXPORT_CHUNK, AskdockError, type Params, type Result } from '../../protocol/index.ts';
import { answersText, AuditEntry, buildEvidence, buildExport, entryLine, FILES, MerkleTree, type ExportFiles, type KeptAnswer } from '../../audit/index.ts';
import { entriesCsv } from '../../audit/csv.ts';
import type { Identity } from '../auth.ts';
import type { RoomParts } from '../sessions/room-parts.ts';
import { IntegrityError, type AuditLog, type Integrity } from './audit-log.ts';
import { filterOf, pickEntries } from './export-pick.ts';

/** An export is kept this long for its pages. */
const KEEP_MS = 10 * 60_000;

type Kept = { owner: string; files: [string, string][]; atMs: number; failedCheck?: string; agentUnknown?: number };
/** The files of an export, with how many entries `--agent` could not tell to be the agent's or not (pickEntries). */
type Built = { files: ExportFiles; agentUnknown: number };

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
    /** L7: the serial of the last checkpoint stored before an admin last acknowledged a failed check (0 when never). */
    private readonly acknowledgedAfter: () => Promise<number>,
    /** L7: the failed check waiting for an admin, if any. */
    private readonly integrity: () => Promise<Integrity>,
  ) {}

  async page(identity: Identity, p: Params<'audit.export'>): Promise<Result<'audit.export'>> {
    const now = this.parts.clock.now();
    for (const [id, k] of this.kept) if (now - k.atMs > KEEP_MS) this.kept.delete(id);
    if (p.exportId === undefined) {
      const exportId = randomBytes(12).toString('base64url');
      const built = await this.build(p, now);
      const files = [...built.files];
      const integrity = this.log.signed ? await this.integrity() : { ok: true as const };
      const unknown = built.agentUnknown > 0 ? { agentUnknown: built.agentUnknown } : {};
      this.kept.set(exportId, { owner: identity.id, files, atMs: now, ...(integrity.ok ? {} : { failedCheck: integrity.detail }), ...unknown });
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
    const failed = k.failedCheck === undefined ? {} : { failedCheck: k.failedCheck };
    const unknown = k.agentUnknown === undefined ? {} : { agentUnknown: k.agentUnknown };
    return { exportId, files: k.files.map(([n, t]) => ({ name: n, length: t.length })), file: name, offset, data: text.slice(offset, end), next, ...failed, ...unknown };
  }

  private async build(p: Params<'audit.export'>, now: number): Promise<Built> {
    if (!this.log.signed && !p.unsigned)
      throw new AskdockError('AUDIT_KEY_MISSING', 'audit.export: the audit log is unsigned (no usable key, L8): export it only with --unsigned (unsigned: true)');
    // A fresh checkpoint first, unless a failed check waits for an admin (L7): then none is signed.
    if (this.log.signed) await this.signNow();
    const afterSerial = await this.acknowledgedAfter();
    // The checkpoints of the log since the last acknowledgement, one chain (each signed extends the one before): those
    // an acknowledgement set aside may be over other entries, or more than the log holds since.
    const checkpoints = (await this.parts.store.auditCheckpoints()).filter((c) => c.serial > afterSerial);
    const failed = this.log.signed && !(await this.integrity()).ok;
    const tree = failed ? undefined : await this.log.current().catch(unlessBroken);
    // A log that no longer matches them, unacknowledged: the entries as stored against the checkpoints as signed, so
    // `askdock audit verify` names offline where they part, never a shorter log that happens to fit an older checkpoint.
    if (!tree || checkpoints.some((c) => c.size > tree.size)) return this.evidence(p, checkpoints.map((c) => c.note), now);
    // The last of them, in size and so in the order signed: the one the export's entries are proved against.
    const last = checkpoints.at(-1);
    const size = last ? last.size : tree.size;
    const { chosen, agentUnknown } = pickEntries(p, (await this.parts.store.auditLines(0, size)).map((r) => AuditEntry.parse(JSON.parse(r.line))), (e) => e);
    const answers = await this.answersOf(p, chosen, size);
    if (!this.log.signed || !this.log.keys) return { files: unsignedFiles(chosen, p, answers), agentUnknown };
    const sized = size === tree.size ? tree : new MerkleTree(Array.from({ length: size }, (_, i) => tree.leaf(i)));
    const files = buildExport({
      origin: this.log.origin,
      tree: sized,
      entries: chosen,
      checkpoints: checkpoints.map((c) => c.note),
      keys: this.log.keys,
      signer: this.log.keys[this.log.keys.length - 1],
      answers,
      filter: filterOf(p, agentUnknown),
      ...(p.redact ? { redact: p.redact } : {}),
      ...(p.format ? { format: p.format } : {}),
      createdAtMs: now,
    });
    return { files, agentUnknown };
  }

  /**
   * L7: the export while a failed check waits for an admin: no checkpoint is signed; the stored lines up to the last
   * checkpoint since the acknowledgement, as they are, against the checkpoints as signed (buildEvidence).
   */
  private async evidence(p: Params<'audit.export'>, checkpoints: string[], now: number): Promise<Built> {
    const keys = this.log.keys;
    if (!keys) {
      // An unsigned log with a hole: what is stored, as any unsigned export (nothing in it is vouched for).
      const stored = (await this.parts.store.auditLines(0, Number.MAX_SAFE_INTEGER)).map((r) => looseEntry(r.line));
      const { chosen, agentUnknown } = pickEntries(p, stored, (e) => e);
      const entries = chosen.filter((e): e is AuditEntry => e !== undefined);
      return { files: unsignedFiles(entries, p, await this.answersOf(p, entries, Number.MAX_SAFE_INTEGER)), agentUnknown };
    }
    const last = checkpoints.at(-1);
    if (!last) {
      const { detail } = (await this.integrity()) as { detail?: string };
      throw new AskdockError('INVALID_REQUEST', `audit.export: the audit log failed its self-check (${detail ?? 'a hole in the log'}) and no checkpoint was signed since the last acknowledgement to prove its entries against; run askdock audit acknowledge, then export`);
    }
    const size = Number(last.split('\n')[1]);
    const stored = await this.parts.store.auditLines(0, size);
    // A line that no longer reads as an entry is evidence: kept whatever the filter.
    const { chosen, agentUnknown } = pickEntries(p, stored, (r) => looseEntry(r.line));
    const parsed = chosen.map((r) => looseEntry(r.line)).filter((e): e is AuditEntry => e !== undefined);
    const files = buildEvidence({
      origin: this.log.origin,
      stored,
      chosen,
      checkpoints,
      keys,
      signer: keys[keys.length - 1],
      answers: await this.answersOf(p, parsed, size),
      filter: filterOf(p, agentUnknown),
      ...(p.redact ? { redact: p.redact } : {}),
      createdAtMs: now,
    });
    return { files, agentUnknown };
  }

  /**
   * An answer kept for an entry of its question that records answers: one left behind by a row deleted before an
   * acknowledgement (L7) belongs to no entry now, even where a later entry took its index.
   */
  private async answersOf(p: Params<'audit.export'>, chosen: AuditEntry[], size: number) {
    if (p.redact === 'answers') return [];
    const wanted = new Map(chosen.filter((e) => e.answersDigest !== undefined).map((e) => [e.index, e.questionId]));
    return (await this.parts.store.auditAnswers(0, size)).filter((a) => wanted.get(a.entryIndex) === a.questionId);
  }
}

/** A stored line as an entry, or undefined when it no longer reads as one (a row edited in the database, L7). */
function looseEntry(line: string): AuditEntry | undefined {
  try {
    const parsed = AuditEntry.safeParse(JSON.parse(line));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** A hole or a shortened log read by the export (L7): undefined, so the export shows it, never a crash. */
function unlessBroken(err: unknown): undefined {
  if (err instanceof IntegrityError) return undefined;
  throw err;
}

/**
 * L8 with --unsigned: the entries (and a table) with nothing signed; `askdock audit verify` cannot vouch for them. The
 * answers with their salts come too (L5), unless redacted, so each still checks against its entry's digest.
 */
function unsignedFiles(entries: AuditEntry[], p: Params<'audit.export'>, answers: KeptAnswer[]): ExportFiles {
  const files: ExportFiles = new Map([[FILES.entries, entries.map((e) => entryLine(e) + '\n').join('')]]);
  if (p.redact !== 'answers') files.set(FILES.answers, answersText(answers));
  if (p.format === 'csv') files.set(FILES.csv, entriesCsv(entries));
  return files;
}
