import { describe, expect, it } from 'vitest';
import { methods, type MethodName } from './methods.ts';
import { plainParams } from './plain-params.ts';

const item = { id: 'env', header: 'Environment', question: 'Where to?', options: [{ label: 'Staging' }, { label: 'Production' }] };
const good: [MethodName, unknown][] = [
  ['question.request', { sessionKey: 's_1', questions: [item] }],
  ['question.request', { questions: [item] }],
  [
    'question.request',
    {
      id: 'ask.1:a-b_c',
      sessionKey: 's_1',
      runId: 'r_1',
      mode: 'async',
      privileged: true,
      timeoutMs: 1.5,
      questions: [
        { ...item, header: '  A header longer than twelve  ', question: ' padded ', multiSelect: true, url: ' https://example.com/pr/42 ' },
        { id: 'two', header: 'Two', question: 'Which?', multiSelect: false, options: [{ label: ' a ', description: ' why ' }, { label: 'b', description: '' }, { label: 'c' }] },
        { id: 'three', header: '😀😀😀😀😀😀😀😀😀😀😀😀😀', question: 'q', options: [{ label: 'x' }, { label: 'y' }] },
      ],
    },
  ],
  ['question.waitAnswer', { id: 'q_1' }],
  ['question.waitAnswer', { id: 'q_1', timeoutMs: 0, includeResolutionId: true }],
  ['question.resolve', { id: 'q_1', answers: { env: ['Staging'] } }],
  ['question.resolve', { id: 'q_1', answers: { env: ['Staging', 'free text'], other: [], '7': ['x'] }, resolutionId: 'r', surface: 'channel:slack' }],
  ['question.resolve', { id: 'q_1', answers: {} }],
];

/** Values put in place of each field in turn, and whole inputs beside them. */
const odd: unknown[] = [
  undefined, null, true, false, 0, -1, 1.5, 2 ** 60, Number.NaN, Number.POSITIVE_INFINITY, '', ' ', 'x', ' y ', 'x'.repeat(129),
  'x'.repeat(1001), 'Other', 'other (specify)', 'Staging', 'https://a.b', 'ftp://a.b', 'http://', 'control-ui', 'channel:Bad', 'async',
  'BAD-ID', '9id', [], ['x'], [1], [item], [item, item], [item, item, item, { ...item, id: 'd' }], {}, { label: 'Staging' },
  { env: ['x'] }, { env: 'x' }, JSON.parse('{"__proto__": ["x"]}'), Object.create(null),
];

/** Every input made from `value` by replacing one field (at any depth) with each odd value, or by adding or removing one. */
function variants(value: unknown): unknown[] {
  const out: unknown[] = [...odd];
  if (Array.isArray(value)) {
    value.forEach((x, i) => {
      for (const v of variants(x)) out.push(value.map((y, j) => (j === i ? v : y)));
      out.push(value.filter((_, j) => j !== i));
    });
  } else if (typeof value === 'object' && value !== null) {
    const obj = value as Record<string, unknown>;
    for (const key of Object.keys(obj)) {
      for (const v of variants(obj[key])) out.push({ ...obj, [key]: v });
      const { [key]: _dropped, ...rest } = obj;
      out.push(rest);
    }
    out.push({ ...obj, extra: 1 }, { ...obj, skip: true }, { ...obj, cancel: true });
  }
  return out;
}

describe('plainParams', () => {
  it('[Q2] gives exactly what the method schema gives, and only for input the schema accepts', () => {
    let plain = 0;
    let checked = 0;
    for (const [method, input] of good) {
      expect(plainParams(method, input), `${method} ${JSON.stringify(input)}`).not.toBeUndefined();
      for (const raw of [input, ...variants(input)]) {
        checked++;
        const fast = plainParams(method, raw);
        if (fast === undefined) continue;
        plain++;
        const parsed = methods[method].params.safeParse(raw);
        expect(parsed.success, `${method} ${JSON.stringify(raw)}`).toBe(true);
        expect(fast, `${method} ${JSON.stringify(raw)}`).toStrictEqual(parsed.data);
      }
    }
    // Both ways are exercised: many variants read plainly, many left to the schema.
    expect(plain).toBeGreaterThan(100);
    expect(checked - plain).toBeGreaterThan(1000);
  });

  it('[Q2][X2] a question with a detail is read plainly, as the schema reads it; another kind is left to the schema', () => {
    const withDetail = { questions: [{ ...item, detail: '$ rm -rf build\n  --force\n' }, { ...item, id: 'blank', detail: ' \n ' }] };
    const fast = plainParams('question.request', withDetail);
    expect(fast).toStrictEqual(methods['question.request'].params.parse(withDetail));
    expect(fast).toMatchObject({ questions: [{ detail: '$ rm -rf build\n  --force\n' }, { id: 'blank' }] });
    const confirm = { questions: [{ id: 'go', header: 'Go', question: 'Deploy now?', kind: 'confirm' }] };
    expect(plainParams('question.request', confirm)).toBeUndefined();
    expect(methods['question.request'].params.parse(confirm).questions![0].options).toEqual([{ label: 'Yes' }, { label: 'No' }]);
  });

  it('leaves every other method to its schema', () => {
    expect(plainParams('question.get', { id: 'q_1' })).toBeUndefined();
    expect(plainParams('chat.send', { sessionKey: 's', message: 'hi', idempotencyKey: 'k'.repeat(8) })).toBeUndefined();
  });
});
