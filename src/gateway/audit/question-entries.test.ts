import { describe, expect, it, vi } from 'vitest';
import * as canonical from '../../audit/canonical.ts';
import { newSeed } from '../../audit/ed25519.ts';
import { AuditEntry, entryLine, ReceiptPayload, signReceipt, verifyReceipt } from '../../audit/index.ts';
import { signerFromSeed } from '../../audit/note.ts';
import { createMemoryStore } from '../store/memory.ts';
import type { StoredQuestion } from '../store/types.ts';
import type { AuditRoom } from './audit-room.ts';
import { QuestionDigests } from './question-digests.ts';
import { recordAsked, recordDecided } from './question-entries.ts';

// Every call into the canonical JSON module counted: a question's digests, and the JSON each header is made of.
vi.mock('../../audit/canonical.ts', async (original) => {
  const real = await original<typeof import('../../audit/canonical.ts')>();
  return { ...real, digestOf: vi.fn(real.digestOf), canonicalJson: vi.fn(real.canonicalJson) };
});

const ORIGIN = 'askdock.local/question-entries';
const keys = [{ ...signerFromSeed(ORIGIN, newSeed()), validFrom: '2026-12-01T00:00:00.000Z' }];

/** The audit room as question-entries.ts uses it: entries into a memory store, the gateway's key and digests. */
function room(signing = keys) {
  const store = createMemoryStore();
  const audit = {
    record: (e: Parameters<AuditRoom['record']>[0]) => store.appendAudit(e),
    recordUnread: (e: Parameters<AuditRoom['recordUnread']>[0]) => store.appendAuditUnread(e),
    log: { keys: signing, origin: ORIGIN }, digests: new QuestionDigests() };
  return { store, audit: audit as unknown as AuditRoom };
}

const asked = (id: string, title = 'Deploy now?'): StoredQuestion =>
  ({ id, askedBy: 'agent', mode: 'blocking', sessionKey: 's-1', questions: [{ id: 'q1', kind: 'choice', title, options: [{ label: 'Yes' }, { label: 'No' }] }], createdAtMs: 1_000, expiresAtMs: null, status: 'pending' }) as unknown as StoredQuestion;
const answered = (q: StoredQuestion): StoredQuestion => ({ ...q, status: 'answered', answers: { q1: ['Yes'] }, resolvedBy: { identity: 'ana', surface: 'dock', atMs: 2_000 } });
const approval = (id: string): StoredQuestion =>
  ({ ...asked(id), approval: { request: { tool: 'Bash', input: { command: 'npm test' }, agent: 'claude' }, digest: 'd', askedRules: ['tests'], offers: [] } }) as StoredQuestion;

const digestCalls = () => vi.mocked(canonical.digestOf).mock.calls.length;
const headerBuilds = () => vi.mocked(canonical.canonicalJson).mock.calls.filter(([v]) => typeof v === 'object' && v !== null && 'alg' in v).length;

async function roundTrip(audit: AuditRoom, q: StoredQuestion, readBack = false) {
  await recordAsked(audit, q);
  // Read back from the store, a question is a copy of what was asked: the same JSON, other objects.
  return recordDecided(audit, answered(readBack ? structuredClone(q) : q), 2_000);
}

describe('a question round trip in the audit log (L1, L4)', () => {
  it('[L4] the question digest is made once per round trip (an approval: its input once too), also when the question was read back', async () => {
    const { audit } = room();
    let before = digestCalls();
    await roundTrip(audit, asked('q-a'));
    expect(digestCalls() - before).toBe(1);
    before = digestCalls();
    await roundTrip(audit, asked('q-b'), true);
    expect(digestCalls() - before).toBe(1);
    before = digestCalls();
    await roundTrip(audit, approval('q-c'), true);
    expect(digestCalls() - before).toBe(2);
  });

  it('[L4] a question read back is matched to the one asked without writing either one\'s items as JSON again', async () => {
    const { audit } = room();
    const q = asked('q-j');
    await recordAsked(audit, q);
    const back = answered(structuredClone(q));
    const stringify = vi.spyOn(JSON, 'stringify');
    try {
      await recordDecided(audit, back, 2_000);
      expect(stringify.mock.calls.filter(([value]) => value === q.questions || value === back.questions)).toEqual([]);
    } finally {
      stringify.mockRestore();
    }
  });

  it('[L4] the decision of a question whose items are not those asked here gets digests of its own items', async () => {
    const { store, audit } = room();
    await recordAsked(audit, asked('q-a', 'Deploy now?'));
    await recordDecided(audit, answered(asked('q-a', 'Deploy later?')), 2_000);
    const [, decided] = (await store.auditLines(0, 2)).map((r) => JSON.parse(r.line));
    expect(decided.questionDigest).toBe(canonical.digestOf(asked('q-a', 'Deploy later?').questions));
  });

  it('[L4] a receipt header is made once per key, not once per receipt; the receipt is the one the full check signs, and verifies', async () => {
    const fresh = [{ ...signerFromSeed(ORIGIN, newSeed()), validFrom: '2026-12-02T00:00:00.000Z' }];
    const { store, audit } = room(fresh);
    const before = headerBuilds();
    const receipts = [await roundTrip(audit, asked('q-h1')), await roundTrip(audit, approval('q-h2')), await roundTrip(audit, asked('q-h3'))];
    expect(headerBuilds() - before).toBe(1);
    const [second] = (await store.auditLines(3, 4)).map((r) => JSON.parse(r.line) as AuditEntry);
    const payload = JSON.parse(Buffer.from(receipts[1]!.split('.')[1], 'base64url').toString('utf8')) as ReceiptPayload;
    expect(payload).toMatchObject({ questionId: 'q-h2', entryIndex: second.index, inputDigest: second.inputDigest, questionDigest: second.questionDigest });
    // Ed25519 is deterministic: the same payload signed through the full check gives the same bytes.
    expect(signReceipt(payload, fresh[0])).toBe(receipts[1]);
    expect(verifyReceipt(receipts[0]!, fresh)).toMatchObject({ ok: true, payload: { questionId: 'q-h1', status: 'answered', decidedBy: 'person' } });
  });

  it('[L1] the entries and receipt the gateway builds are not parsed by the schema again; their lines are those the full check gives', async () => {
    const { store, audit } = room();
    const entryParses = vi.spyOn(AuditEntry, 'safeParse');
    const receiptParses = vi.spyOn(ReceiptPayload, 'safeParse');
    try {
      await roundTrip(audit, approval('q-z'));
      expect(entryParses).not.toHaveBeenCalled();
      expect(receiptParses).not.toHaveBeenCalled();
    } finally {
      entryParses.mockRestore();
      receiptParses.mockRestore();
    }
    for (const { line } of await store.auditLines(0, 10)) expect(entryLine(JSON.parse(line) as AuditEntry)).toBe(line);
  });
});
