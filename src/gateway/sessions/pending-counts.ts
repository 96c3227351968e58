import type { Identity } from '../auth.ts';
import type { EventAudience, PendingTally } from '../store/types.ts';
import { canSeeQuestion } from './visibility.ts';

/** A session's open questions of one class: who asked them and whether privileged (all A3 needs), and how many. */
export type QuestionClass = Pick<PendingTally, 'askedBy' | 'privileged' | 'n'>;

/**
 * A3: how many of a session's open questions this identity may see. Decided once per class (asker and privilege) rather
 * than once per question: the work grows with the askers, and never with the questions hidden from the identity.
 */
export function countVisible(identity: Identity, sessionKey: string, classes: readonly QuestionClass[], owner: string | undefined): number {
  let n = 0;
  for (const c of classes) if (canSeeQuestion(identity, { sessionKey, askedBy: c.askedBy, privileged: c.privileged }, owner)) n += c.n;
  return n;
}

/** The store's tallies of many sessions, by session. */
export function classesBySession(tallies: readonly PendingTally[]): Map<string, QuestionClass[]> {
  const out = new Map<string, QuestionClass[]>();
  for (const t of tallies) {
    const list = out.get(t.sessionKey);
    if (list) list.push(t);
    else out.set(t.sessionKey, [t]);
  }
  return out;
}

/** The pending questions a session.updated event tells (its audience), as classes: made once per event, not per viewer. */
export function classesOfTold(pending: NonNullable<EventAudience['pending']>): QuestionClass[] {
  const byClass = new Map<string, QuestionClass>();
  for (const q of pending) {
    const privileged = q.privileged === true;
    const id = `${privileged ? 'p' : 'o'}${q.askedBy}`;
    const known = byClass.get(id);
    if (known) known.n++;
    else byClass.set(id, { askedBy: q.askedBy, privileged, n: 1 });
  }
  return [...byClass.values()];
}
