/** Q5: a prompt's answers checked against its record, each question by its kind. */
import { ANSWER_MAX, own, type AnswerProblem } from '../../protocol/rules.ts';
import type { Answers, QuestionRecord } from '../../protocol/index.ts';
import { kindOf } from './index.ts';
import { mayStayEmpty } from './input.ts';

/**
 * Q5: checks answers against the record and returns them normalised:
 * trimmed, option labels in their authored spelling, free text kept as typed.
 */
export function normaliseAnswers(
  items: QuestionRecord['questions'],
  answers: Answers,
): { ok: true; answers: Answers } | { ok: false; problems: AnswerProblem[] } {
  const problems: AnswerProblem[] = [];
  const out: Answers = {};
  const known = new Set(items.map((q) => q.id));
  for (const key of Object.keys(answers)) {
    if (!known.has(key)) problems.push({ questionId: key, problem: 'is not a question of this prompt' });
  }
  for (const item of items) {
    const raw = own(answers, item.id);
    if (raw === undefined && mayStayEmpty(item)) continue;
    if (!Array.isArray(raw) || raw.length === 0) {
      problems.push({ questionId: item.id, problem: 'needs an answer' });
      continue;
    }
    const values = raw.map((v) => (typeof v === 'string' ? v.trim() : ''));
    if (values.some((v) => v.length === 0)) {
      problems.push({ questionId: item.id, problem: 'has a blank answer' });
      continue;
    }
    if (values.some((v) => v.length > ANSWER_MAX)) {
      problems.push({ questionId: item.id, problem: `answers must be at most ${ANSWER_MAX} characters` });
      continue;
    }
    const verdict = kindOf(item).check(item, values);
    if (verdict.ok) out[item.id] = verdict.values;
    else problems.push({ questionId: item.id, problem: verdict.problem });
  }
  return problems.length ? { ok: false, problems } : { ok: true, answers: out };
}

