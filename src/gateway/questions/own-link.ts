/**
 * X5: a url-mode elicitation's step is complete when its MCP server says so (`notifications/elicitation/complete`).
 * The proxy that asked then answers its own link question Done, so every surface shows it done, not withdrawn. That is
 * all an asker may answer of its own: a link question, with Done only; anything else needs a person (A3).
 */
import { LINK_LABELS } from '../../protocol/rules.ts';
import type { Params } from '../../protocol/index.ts';
import type { Identity } from '../auth.ts';
import type { StoredQuestion } from '../store/types.ts';

const DONE = LINK_LABELS[0].toLowerCase();

/** Whether `p` is the asker of `q` answering its link question(s) Done. */
export function closesOwnLink(identity: Identity, q: StoredQuestion, p: Params<'question.resolve'>): boolean {
  if (!('answers' in p) || q.askedBy !== identity.id || q.questions.length === 0) return false;
  if (Object.keys(p.answers).length !== q.questions.length) return false;
  return q.questions.every((item) => {
    const values = item.kind === 'link' ? p.answers[item.id] : undefined;
    return values?.length === 1 && values[0].trim().toLowerCase() === DONE;
  });
}
