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

/** An answer the same person gave in another browser tab or browser: still "Answered elsewhere" (U7), saying where. */
export const ANSWERED_IN_ANOTHER_TAB = 'Answered elsewhere (in another tab/browser)';

/**
 * How an outcome reads: U7's word exactly (the summary's badge and its group name), and where it happened beside it
 * when that is known (the same person's other tab or browser).
 */
export function shownOutcome(outcome: string): { label: string; where?: string } {
  return outcome === ANSWERED_IN_ANOTHER_TAB ? { label: 'Answered elsewhere', where: 'in another tab or browser' } : { label: outcome };
}

/** Browser surfaces: the Control UI and its question link page. */
const BROWSER_SURFACES = new Set(['control-ui', 'link']);

/**
 * Whether an answer this browser did not send still came from the viewer, from a browser: same identity, a browser
 * surface. Another identity, or the TUI, the CLI or a channel, is "Answered elsewhere".
 */
export function answeredInAnotherTab(record: Pick<QuestionRecord, 'status' | 'resolvedBy'>, identity: string | undefined): boolean {
  const by = record.resolvedBy;
  return record.status === 'answered' && identity !== undefined && by?.identity === identity && BROWSER_SURFACES.has(by.surface);
}
