import type { EntryHead } from './entry.ts';
import type { VerifierKey } from './note.ts';
import { verifyReceipt } from './receipt.ts';

/** A receipt as a file holds it: the compact JWS alone, or JSON with a `receipt` field (`askdock ask --json`, the hook's log). */
export type ReceiptInput = { file: string; text: string };
type Problem = { file: string; line?: number; entryIndex?: number; detail: string };

export function receiptOf(text: string): string {
  const trimmed = text.trim();
  if (!trimmed.startsWith('{')) return trimmed;
  try {
    const value = JSON.parse(trimmed) as { receipt?: unknown };
    return typeof value.receipt === 'string' ? value.receipt : '';
  } catch {
    return '';
  }
}

/** What a receipt and its entry both say (L4/L1): a receipt that tells another decision than its entry is not that entry's. */
const COMPARED = ['questionId', 'kind', 'sessionKey', 'agentId', 'status', 'decidedBy', 'questionDigest', 'inputDigest', 'answersDigest', 'grantId'] as const;

/** The first field the receipt and the entry tell apart, or undefined: the fields above, the rules, and who decided. */
function differing(payload: ReturnType<typeof verifyReceipt> & { ok: true }, entry: Record<string, unknown>): string | undefined {
  const p = payload.payload;
  const same = COMPARED.find((field) => p[field] !== entry[field]);
  if (same) return same;
  if (JSON.stringify(p.rules ?? []) !== JSON.stringify(entry.rules ?? [])) return 'rules';
  if (p.resolvedBy && p.resolvedBy.identity !== entry.identity) return 'resolvedBy';
  return undefined;
}

/** L6 `--receipt`: the receipt's signature, and that the entry it names says the same. */
export function checkReceiptAgainst(
  input: ReceiptInput,
  trusted: VerifierKey[],
  entries: Map<number, EntryHead>,
): { ok: true; line: string } | { ok: false; exit: 1 | 2; problem: Problem } {
  const file = input.file;
  const checked = verifyReceipt(receiptOf(input.text), trusted);
  if (!checked.ok) return { ok: false, exit: checked.problem === 'unknown-key' ? 2 : 1, problem: { file, line: 1, detail: checked.detail } };
  const { payload } = checked;
  const entry = entries.get(payload.entryIndex) as Record<string, unknown> | undefined;
  if (!entry) return { ok: false, exit: 2, problem: { file, entryIndex: payload.entryIndex, detail: `entry ${payload.entryIndex} is not in this export: export a range that holds it` } };
  const differs = differing(checked, entry);
  if (differs) return { ok: false, exit: 1, problem: { file, entryIndex: payload.entryIndex, detail: `the receipt's ${differs} is not the one entry ${payload.entryIndex} records` } };
  return { ok: true, line: `receipt of question ${payload.questionId} (${payload.status}, decided by ${payload.decidedBy}) matches entry ${payload.entryIndex}` };
}
