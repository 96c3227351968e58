import { describe, expect, it } from 'vitest';
import { toPublic } from '../questions/question-records.ts';
import { storedRecordJson } from './rows.ts';
import type { StoredQuestion } from './types.ts';

const base: StoredQuestion = {
  id: 'q_1',
  sessionKey: 's_1',
  askedBy: 'agent',
  mode: 'blocking',
  questions: [{ id: 'env', header: 'Env', question: 'Where "to"?', options: [{ label: 'Staging' }, { label: 'Prod' }] }],
  createdAtMs: 1,
  expiresAtMs: null,
  status: 'pending',
};

describe('question rows', () => {
  it('[Q1] the stored JSON made from the public JSON is the whole record, its own fields included', () => {
    for (const q of [
      base,
      { ...base, askerClientId: 'cli-"1"' },
      { ...base, status: 'answered', answers: { env: ['Staging'] }, resolutionId: 'r\\1', askerClientId: 'c' },
    ] as StoredQuestion[]) {
      const json = storedRecordJson(q, JSON.stringify(toPublic(q)));
      expect(JSON.parse(json)).toEqual(q);
    }
  });
});
