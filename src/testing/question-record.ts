import type { QuestionRecord } from '../protocol/index.ts';

/** A pending two-question prompt (single-select `env`, multi-select `notify`) for the tests of question logic. */
export function questionRecord(over: Partial<QuestionRecord> = {}): QuestionRecord {
  return {
    id: 'q1',
    askedBy: 'agent',
    mode: 'blocking',
    questions: [
      { id: 'env', header: 'Env', question: 'Where?', options: [{ label: 'Staging (Recommended)' }, { label: 'Production' }] },
      { id: 'notify', header: 'Notify', question: 'Who?', options: [{ label: 'Email' }, { label: 'Slack' }, { label: 'Pager' }], multiSelect: true },
    ],
    createdAtMs: 1,
    expiresAtMs: 2,
    status: 'pending',
    ...over,
  };
}
