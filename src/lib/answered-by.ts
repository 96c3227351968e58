/**
 * E7: who decided a routed question, in the words every surface shows once it is answered: "Answered by Ana · TUI",
 * for an approval and a quorum too. What was decided (Allow or Deny) and a quorum's approvers (E5, E8) are said apart.
 */
import { APPROVAL_ALLOW, APPROVAL_DENY, readApproval } from '../answers/kinds/approval.ts';
import type { QuestionRecord, SecretRequestRecord } from '../protocol/index.ts';

const SURFACE_WORDS: Record<string, string> = {
  'control-ui': 'Control UI',
  link: 'Control UI',
  tui: 'TUI',
  cli: 'CLI',
  push: 'push notification',
  'channel:telegram': 'Telegram',
  'channel:slack': 'Slack',
  'channel:discord': 'Discord',
};

/** A surface as people name it ("tui" reads "TUI"); an unknown one as it is. */
export function surfaceWords(surface: string): string {
  return Object.hasOwn(SURFACE_WORDS, surface) ? SURFACE_WORDS[surface] : surface;
}

type Answered = Pick<QuestionRecord, 'status' | 'answers' | 'resolvedBy' | 'route' | 'questions'>;

const answeredBy = (record: Answered) => (record.route && record.status === 'answered' ? record.resolvedBy : undefined);
const approvalOf = (record: Answered) => (record.questions.length === 1 && record.questions[0].kind === 'approval' ? record.questions[0] : undefined);

/** The line for an answered routed question; null for anything else (not routed, not answered, nobody named). */
export function answeredByText(record: Answered): string | null {
  const by = answeredBy(record);
  return by ? `Answered by ${by.name ?? by.identity} · ${surfaceWords(by.surface)}` : null;
}

/** An answered routed approval's decision in its own buttons' words ("Allow", "Deny"); null for anything else. */
export function approvalDecision(record: Answered): typeof APPROVAL_ALLOW | typeof APPROVAL_DENY | null {
  const item = approvalOf(record);
  if (!item || !answeredBy(record)) return null;
  return readApproval(item, record.answers?.[item.id] ?? []).behavior === 'deny' ? APPROVAL_DENY : APPROVAL_ALLOW;
}

/** E5: an allowed quorum's approvers, each once, the Allow that completed it last ("Approvals: Ana, Bo"); null for anything else. */
export function approversText(record: Answered): string | null {
  const by = answeredBy(record);
  if (!by || !record.route?.quorum || approvalDecision(record) !== APPROVAL_ALLOW) return null;
  const approvers = new Map(record.route.quorum.approvals.map((a) => [a.identity, a.name ?? a.identity]));
  approvers.delete(by.identity);
  approvers.set(by.identity, by.name ?? by.identity);
  return approvers.size > 1 ? `Approvals: ${[...approvers.values()].join(', ')}` : null;
}

/** E7 for K1: who ended a routed secret request, in the same words ("Answered by Ana · TUI"; a skip "Skipped by …"). */
export function secretAnsweredByText(request: Pick<SecretRequestRecord, 'status' | 'resolvedBy' | 'route'>): string | null {
  const by = request.route && request.resolvedBy;
  if (!by || (request.status !== 'stored' && request.status !== 'skipped')) return null;
  return `${request.status === 'stored' ? 'Answered' : 'Skipped'} by ${by.name ?? by.identity} · ${surfaceWords(by.surface)}`;
}
