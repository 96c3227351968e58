import { describe, expect, it } from 'vitest';
import { digestOf } from './canonical.ts';
import { builtEntryLine, entryLine, type AuditEntry } from './entry.ts';

const entry: AuditEntry = {
  v: 1,
  index: 7,
  atMs: 1_700_000_000_123,
  event: 'question.answered',
  identity: 'ana',
  surface: 'dock',
  questionId: 'q-1',
  sessionKey: 'agent:main:é',
  kind: 'choice',
  status: 'answered',
  decidedBy: 'person',
  rules: ['npm-tests'],
  questionDigest: digestOf({ title: 'Run npm test?' }),
  answersDigest: digestOf(['x']),
  detail: { note: 'line\nbreak "quoted"', n: 1.5, ok: true },
};

describe('an entry the gateway builds (L1)', () => {
  it('[L1] its line is the one the full check gives, and a field not listed (an answer) is refused, naming it', () => {
    expect(builtEntryLine(entry)).toBe(entryLine(entry));
    expect(builtEntryLine({ ...entry, grantId: undefined })).toBe(entryLine(entry));
    expect(() => builtEntryLine({ ...entry, answers: ['Yes'] } as AuditEntry)).toThrow(/audit entry \$: .*\(answers\)/);
  });
});
