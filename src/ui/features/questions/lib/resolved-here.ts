import type { Answers, QuestionRecord } from '../../../../protocol/index.ts';

/** Compares answers as the gateway stores them (labels may differ in case from typed text), key order aside. */
export function answersFingerprint(answers: Answers | undefined): string {
  const keys = Object.keys(answers ?? {}).sort();
  return JSON.stringify(keys.map((k) => [k, [...new Set(answers![k].map((v) => v.trim().toLowerCase()))].sort()]));
}

/** The fingerprint of a skip, kept beside answer fingerprints. */
export const SKIP_FINGERPRINT = 'skip';

/**
 * Whether an answered or skipped record ended with something this browser sent: a fingerprint it tried, under the
 * same identity. One operator token may answer from the TUI or another browser too, so the identity alone cannot tell.
 */
export function resolvedHere(
  record: Pick<QuestionRecord, 'status' | 'answers' | 'resolvedBy'>,
  sent: readonly string[],
  identity: string | undefined,
): boolean {
  const sameIdentity = !identity || !record.resolvedBy || record.resolvedBy.identity === identity;
  if (record.status === 'answered') return sameIdentity && sent.includes(answersFingerprint(record.answers));
  if (record.status === 'skipped') return sameIdentity && sent.includes(SKIP_FINGERPRINT);
  return false;
}
