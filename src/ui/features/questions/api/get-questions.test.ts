import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import type { QuestionRecord } from '../../../../protocol/index.ts';
import { deployRecord, lunchRecord } from '../../../../testing/ui-questions.tsx';
import { mergeRecords, questionRequested, questionResolved, questionRetired, questionsKey } from './get-questions.ts';

describe('questions query', () => {
  it('[Q8] a stale pending copy never overwrites an outcome, and nothing visible disappears on refetch', () => {
    const answered = deployRecord({ status: 'answered', answers: { env: ['Production'] } });
    expect(mergeRecords([answered], [deployRecord()])).toEqual([answered]);
    expect(mergeRecords([lunchRecord()], [deployRecord()]).map((r) => r.id)).toEqual(['q-deploy', 'q-lunch']);
  });

  it('[Q10][U8] a reminder retired again keeps its latest retirement whichever copy arrives first', () => {
    const later = lunchRecord({ retiredAtMs: 9 });
    expect(mergeRecords([later], [lunchRecord({ retiredAtMs: 5 })])[0].retiredAtMs).toBe(9);
    expect(mergeRecords([lunchRecord({ retiredAtMs: 5 })], [later])[0].retiredAtMs).toBe(9);
    expect(mergeRecords([later], [lunchRecord()])[0].retiredAtMs).toBe(9);
  });

  it('[Q8] [Q10] events add, resolve and retire records in the cache', () => {
    const qc = new QueryClient();
    qc.setQueryData<QuestionRecord[]>(questionsKey, []);
    questionRequested(qc, { question: deployRecord() });
    questionRequested(qc, { question: lunchRecord() });
    const resolvedBy = { identity: 'op', surface: 'tui', atMs: 5 };
    expect(questionResolved(qc, { id: 'q-deploy', status: 'answered', answers: { env: ['Production'] }, resolvedBy })).toBe(true);
    expect(questionResolved(qc, { id: 'unknown', status: 'expired' })).toBe(false);
    questionRetired(qc, { id: 'q-lunch', retiredAtMs: 9 });
    const [deploy, lunch] = qc.getQueryData<QuestionRecord[]>(questionsKey)!;
    expect(deploy).toMatchObject({ status: 'answered', answers: { env: ['Production'] }, resolvedBy });
    expect(lunch).toMatchObject({ status: 'pending', retiredAtMs: 9 });
  });

  it('[L4][L9] the receipt a question.resolved event carries stays on the cached record, for the summary to show', () => {
    const qc = new QueryClient();
    qc.setQueryData<QuestionRecord[]>(questionsKey, [deployRecord()]);
    questionResolved(qc, { id: 'q-deploy', status: 'answered', answers: { env: ['Production'] }, receipt: 'aGVhZA.Ym9keQ.c2ln' });
    expect(qc.getQueryData<QuestionRecord[]>(questionsKey)![0]).toMatchObject({ status: 'answered', receipt: 'aGVhZA.Ym9keQ.c2ln' });
  });
});
