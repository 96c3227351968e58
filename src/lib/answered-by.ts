/**
 * E7: who decided a routed question, in the words every surface shows once it is answered: "Answered by Ana · TUI",
 * an approval's "Approved by Dana · Control UI" or "Denied by Bo · Telegram", and a quorum's every approver
 * ("Approved by Ana and Bo").
 */
import { readApproval } from '../answers/kinds/approval.ts';
import type { QuestionRecord } from '../protocol/index.ts';

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

const listed = (names: string[]) => (names.length <= 1 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`);

type Answered = Pick<QuestionRecord, 'status' | 'answers' | 'resolvedBy' | 'route' | 'questions'>;

/** The line for an answered routed question; null for anything else (not routed, not answered, nobody named). */
export function answeredByText(record: Answered): string | null {
  const by = record.resolvedBy;
  if (!record.route || record.status !== 'answered' || !by) return null;
  const who = by.name ?? by.identity;
  const item = record.questions.length === 1 && record.questions[0].kind === 'approval' ? record.questions[0] : undefined;
  if (!item) return `Answered by ${who} · ${surfaceWords(by.surface)}`;
  const behavior = readApproval(item, record.answers?.[item.id] ?? []).behavior;
  if (behavior === 'deny') return `Denied by ${who} · ${surfaceWords(by.surface)}`;
  // E5: a quorum's approvals so far, and the Allow that completed it.
  const approvers = new Map((record.route.quorum?.approvals ?? []).map((a) => [a.identity, a.name ?? a.identity]));
  approvers.set(by.identity, who);
  return approvers.size > 1 ? `Approved by ${listed([...approvers.values()])}` : `Approved by ${who} · ${surfaceWords(by.surface)}`;
}
