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

  it('[L1] a value not of its field\'s kind is refused before it is stored, naming the field, wherever the full check refuses it', () => {
    const bad: [keyof AuditEntry, unknown][] = [
      ['v', 2],
      ['index', -1],
      ['index', 1.5],
      ['atMs', '1700000000123'],
      ['atMs', Number.NaN],
      ['event', 'question.read'],
      ['identity', ''],
      ['surface', 7],
      ['rules', ['ok', '']],
      ['rules', 'npm-tests'],
      ['questionDigest', 'short'],
      ['answersDigest', null],
      ['detail', { note: { nested: true } }],
      ['detail', { n: Number.POSITIVE_INFINITY }],
      ['detail', ['a']],
    ];
    for (const [field, value] of bad) {
      const built = { ...entry, [field]: value } as AuditEntry;
      expect(() => entryLine(built), `${field}: ${String(value)}`).toThrow();
      expect(() => builtEntryLine(built), `${field}: ${String(value)}`).toThrow(new RegExp(`^audit entry ${field}(\\.\\w+)?: `));
    }
    const { atMs: _atMs, ...noTime } = entry;
    expect(() => builtEntryLine(noTime as AuditEntry)).toThrow('audit entry atMs: is required');
  });
});
