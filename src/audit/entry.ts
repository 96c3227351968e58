import * as z from 'zod';
import { builtShape, checkBuilt, type FieldKinds } from './built-fields.ts';
import { canonicalJson } from './canonical.ts';
import { leafHash } from './merkle.ts';

/** L1: what the log records. Each event names the change it was written with, in the same transaction. */
export const AUDIT_EVENTS = [
  'question.asked',
  'question.notified',
  'question.escalated',
  'question.acknowledged',
  'question.handedOff',
  'question.answered',
  'question.skipped',
  'question.expired',
  'question.cancelled',
  'policy.allowed',
  'policy.denied',
  'grant.allowed',
  'grant.made',
  'grant.revoked',
  'policy.loaded',
  'audit.acknowledged',
  /** L7: in place of an entry whose stored row was missing when an admin acknowledged the failed check (see docs/audit.md). */
  'audit.lost',
] as const;

const digest = z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'a base64url SHA-256 digest');
const text = z.string().min(1);

/**
 * One entry: what happened, when, who (identity, agent, surface), the question and session, the rules, and digests of
 * the question, its input and its answers; never an answer's text or a secret (those stay in the gateway's tables).
 */
export const AuditEntry = z
  .object({
    v: z.literal(1),
    index: z.number().int().nonnegative(),
    atMs: z.number().int().nonnegative(),
    event: z.enum(AUDIT_EVENTS),
    identity: text.optional(),
    agentId: text.optional(),
    surface: text.optional(),
    questionId: text.optional(),
    sessionKey: text.optional(),
    kind: text.optional(),
    status: text.optional(),
    decidedBy: text.optional(),
    rules: z.array(text).optional(),
    grantId: text.optional(),
    questionDigest: digest.optional(),
    inputDigest: digest.optional(),
    answersDigest: digest.optional(),
    detail: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).optional(),
  })
  .strict();
export type AuditEntry = z.infer<typeof AuditEntry>;

/**
 * What a verifier needs of an entry it reads. Loose on purpose: a newer gateway may record more, and the hash covers
 * whatever is there.
 */
export const EntryHead = z.object({ v: z.literal(1), index: z.number().int().nonnegative(), atMs: z.number().int().nonnegative(), event: text }).loose();
export type EntryHead = z.infer<typeof EntryHead>;

/** The leaf the tree holds: the entry's canonical JSON, which is also its line in entries.jsonl. */
export function entryLine(entry: AuditEntry): string {
  const parsed = AuditEntry.safeParse(entry);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new TypeError(`audit entry ${issue.path.join('.') || '$'}: ${issue.message}`);
  }
  return canonicalJson(parsed.data);
}

/** AuditEntry's fields by kind, for what the gateway builds (built-fields.ts); a field added above fails to compile here. */
const ENTRY_KINDS = {
  v: 'one',
  index: 'count',
  atMs: 'count',
  event: AUDIT_EVENTS,
  identity: 'text',
  agentId: 'text',
  surface: 'text',
  questionId: 'text',
  sessionKey: 'text',
  kind: 'text',
  status: 'text',
  decidedBy: 'text',
  rules: 'texts',
  grantId: 'text',
  questionDigest: 'digest',
  inputDigest: 'digest',
  answersDigest: 'digest',
  detail: 'detail',
} as const satisfies Record<keyof AuditEntry, FieldKinds[string]>;
const ENTRY_SHAPE = builtShape(ENTRY_KINDS, ['v', 'index', 'atMs', 'event']);
const ENTRY_NAME = { name: 'audit entry', listedIn: 'an entry' };

/**
 * The line of an entry the gateway built itself: its fields and values checked in one pass (a field not listed, such
 * as an answer's text, or a value not of its field's kind is refused, naming the field), not by the schema parse that
 * entries read from outside (an export) go through (`entryLine`). The same line as `entryLine` for the same entry.
 */
export function builtEntryLine(entry: AuditEntry): string {
  checkBuilt(ENTRY_NAME, ENTRY_SHAPE, entry, (message) => new TypeError(message));
  return canonicalJson(entry);
}

export const entryLeaf = (entry: AuditEntry): Buffer => leafHash(entryLine(entry));
