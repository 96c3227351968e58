import { resolvedNotice } from '../../answers/summary.ts';
import { answeredByText, approvalDecision, approversText } from '../../lib/answered-by.ts';
import { readPolicyNotice } from '../../lib/policy-notice.ts';
import type { QuestionRecord } from '../../protocol/index.ts';
import type { TuiState } from './tui-store.ts';

export type TranscriptRow = {
  key: string;
  /** `decision`: G6, an approval the policy, a grant or a person allowed or denied (a dim line of its own). */
  who: 'you' | 'agent' | 'system' | 'notice' | 'decision';
  text: string;
  ok?: boolean;
  /** A notice's questions, shown beside it as the Control UI's summary shows them: headers the notice lacks, and the wording. */
  detail?: string;
};

/** What was asked, beside the V5 notice: `✓ Environment: Staging` already names the header, an outcome word does not. */
export function askedText(questions: QuestionRecord['questions'], answered: boolean): string {
  const one = (s: string) => s.replace(/\s+/g, ' ').trim();
  return questions
    .map((q) => (answered || !q.header || one(q.header).toLowerCase() === one(q.question).toLowerCase() ? one(q.question) : `${one(q.header)}: ${one(q.question)}`))
    .join(' · ');
}

/**
 * The open session's transcript: its messages and, where each question ended, the compact notice (V5):
 * `✓ Environment: Staging · Notify: Email, Slack` when answered here, else the outcome word.
 */
export function transcriptRows(s: Pick<TuiState, 'sessionKey' | 'messages' | 'questions' | 'endedAtMs' | 'mine' | 'seenPending' | 'identity'>): TranscriptRow[] {
  if (!s.sessionKey) return [];
  const rows: (TranscriptRow & { at: number; order: number })[] = [];
  for (const m of s.messages[s.sessionKey] ?? []) {
    const who = m.role === 'assistant' ? 'agent' : m.role !== 'system' ? 'you' : readPolicyNotice(m.text) ? 'decision' : 'system';
    rows.push({ key: m.id, who, text: m.text, at: m.createdAtMs, order: m.seq });
  }
  for (const q of Object.values(s.questions)) {
    if (q.sessionKey !== s.sessionKey || q.status === 'pending') continue;
    // G6: an approval the policy or a grant decided asked nobody; its system message is the line for it.
    if (q.resolvedBy?.surface === 'policy') continue;
    // Answered here: by this process, or (ended before it saw the question, e.g. before a restart) from a terminal of
    // this identity. Anything else, the Control UI, a channel, another identity, is "Answered elsewhere".
    const fromHere = q.resolvedBy?.surface === 'tui' && q.resolvedBy.identity === s.identity;
    const ours = s.mine[q.id] === true || (!s.seenPending[q.id] && fromHere);
    // E7: a routed question answered by someone else says who, and where ("Answered by Dana · Control UI"); an approval's
    // Allow or Deny and a quorum's approvers (E5) go in the detail beside it.
    const by = ours ? null : answeredByText(q);
    const text = by || resolvedNotice(q, ours);
    if (!text) continue;
    const ok = text.startsWith('✓');
    const asked = askedText(q.questions, ok);
    const decision = by && approvalDecision(q);
    // As the Control UI's summary reads it: the wording, then `→ Deny`.
    const detail = [decision ? `${asked} → ${decision}` : asked, by && approversText(q)].filter(Boolean).join(' · ');
    rows.push({ key: `q:${q.id}`, who: 'notice', text, ok, detail, at: s.endedAtMs[q.id] ?? q.createdAtMs, order: Infinity });
  }
  rows.sort((a, b) => a.at - b.at || a.order - b.order);
  return rows.map(({ at: _at, order: _order, ...row }) => row);
}
