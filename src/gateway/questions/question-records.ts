import { AskdockError, type Answers, type QuestionRecord } from '../../protocol/index.ts';
import type { AnswerProblem, QuestionItem } from '../../protocol/index.ts';
import type { EventAudience, StoredQuestion } from '../store/types.ts';
import { choosesSeveral, severalField } from '../../answers/kinds/choice.ts';

/** Small pure helpers about question records, shared by the question manager and its run hooks. */

export function isTerminal(q: Pick<QuestionRecord, 'status'>): boolean {
  return q.status !== 'pending';
}

/** The public record (Q1): gateway bookkeeping stays inside. */
export function toPublic(q: StoredQuestion): QuestionRecord {
  const { resolutionId: _rid, askerClientId: _cid, approval: _approval, ...record } = q;
  return record;
}

export function questionAudience(q: Pick<QuestionRecord, 'sessionKey' | 'askedBy' | 'privileged'>): EventAudience {
  return { sessionKey: q.sessionKey ?? null, question: { askedBy: q.askedBy, privileged: q.privileged === true } };
}

/** Items as stored: no empty descriptions, the several-choice field only when true, kind only when not `choice`, so resends compare equal. */
export function storedItems(items: QuestionItem[]): QuestionRecord['questions'] {
  return items.map((item) => ({
    id: item.id,
    header: item.header,
    question: item.question,
    ...(item.kind && item.kind !== 'choice' ? { kind: item.kind } : {}),
    options: item.options.map((o) => (o.description ? { label: o.label, description: o.description } : { label: o.label })),
    ...severalField(choosesSeveral(item)),
    ...(item.url ? { url: item.url } : {}),
    ...(item.detail ? { detail: item.detail } : {}),
    ...(item.input ? { input: item.input } : {}),
  }));
}

/** Field-by-field, so key order from the store never matters. */
export function sameItems(a: QuestionRecord['questions'], b: QuestionRecord['questions']): boolean {
  if (a.length !== b.length) return false;
  return a.every((x, i) => {
    const y = b[i];
    if (x.id !== y.id || x.header !== y.header || x.question !== y.question) return false;
    if (choosesSeveral(x) !== choosesSeveral(y) || x.options.length !== y.options.length || (x.url ?? '') !== (y.url ?? '')) return false;
    if ((x.detail ?? '') !== (y.detail ?? '') || (x.kind ?? 'choice') !== (y.kind ?? 'choice')) return false;
    if (JSON.stringify(x.input ?? null) !== JSON.stringify(y.input ?? null)) return false;
    return x.options.every((o, j) => o.label === y.options[j].label && (o.description ?? '') === (y.options[j].description ?? ''));
  });
}

export function sameAnswers(a: Answers | undefined, b: Answers | undefined): boolean {
  if (!a || !b) return a === b;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((k) => {
    const x = a[k];
    const y = b[k];
    return !!y && x.length === y.length && x.every((v, i) => v === y[i]);
  });
}

export function alreadyTerminal(q: StoredQuestion): AskdockError {
  return new AskdockError('QUESTION_ALREADY_TERMINAL', `question "${q.id}" is already ${q.status}`, {
    details: { id: q.id, status: q.status, answers: q.answers, resolvedBy: q.resolvedBy, reason: q.reason },
  });
}

export function invalidAnswer(q: StoredQuestion, problems: AnswerProblem[]): AskdockError {
  const list = problems.map((p) => `${p.questionId} ${p.problem}`).join('; ');
  return new AskdockError('QUESTION_INVALID_ANSWER', `answers to question "${q.id}" are not valid: ${list}`, {
    details: problems,
  });
}

export function questionNotFound(id: string): AskdockError {
  return new AskdockError('QUESTION_NOT_FOUND', `no question "${id}"`, { details: { id } });
}
