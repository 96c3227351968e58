import { describe, expect, it } from 'vitest';
import {
  QuestionRequestParams,
  clampTimeoutMs,
  isAuthoredOther,
  zodProblems,
} from './index.ts';
import { normaliseAnswers } from '../answers/kinds/check-answers.ts';

const good = {
  questions: [
    { id: 'env', header: 'Environment', question: 'Where to?', options: [{ label: 'Staging' }, { label: 'Production' }] },
  ],
};

describe('question.request params', () => {
  it('[Q2] lists every field at fault at once with its path', () => {
    const r = QuestionRequestParams.safeParse({
      questions: [
        { id: 'Env', header: '  ', question: 'x', options: [{ label: 'A' }] },
        { id: 'ok', header: 'H', question: '', options: [{ label: 'A' }, { label: 'a' }, { label: 'Other' }] },
      ],
    });
    expect(r.success).toBe(false);
    const paths = zodProblems(r.error!).map((p) => p.path);
    expect(paths).toEqual(
      expect.arrayContaining([
        'questions[0].id',
        'questions[0].header',
        'questions[0].options',
        'questions[1].question',
        'questions[1].options[1].label',
        'questions[1].options[2].label',
      ]),
    );
  });

  it('[Q2][T3] a question missing its options, or with fields its kind does not take, names that beside its other faults', () => {
    const r = QuestionRequestParams.safeParse({
      questions: [
        { id: 'env', question: 'Where to?' },
        { id: 'ok', header: 7, question: 'Merged?', kind: 'link' },
        { id: 'sure', header: 'Sure', question: null, kind: 'confirm', options: [{ label: 'Maybe' }, { label: 'Never' }] },
      ],
    });
    expect(r.success).toBe(false);
    expect(zodProblems(r.error!)).toEqual(
      expect.arrayContaining([
        { path: 'questions[0].header', problem: 'header must be a string' },
        { path: 'questions[0].options', problem: 'options are required for a choice question' },
        { path: 'questions[1].header', problem: 'header must be a string' },
        { path: 'questions[1].url', problem: 'url is required for a link question' },
        { path: 'questions[2].question', problem: 'question must be a string' },
        { path: 'questions[2].options', problem: 'a confirm question takes no options: its answers are Yes and No' },
      ]),
    );
    // One row per field: a field with its own fault is not named twice.
    const r2 = QuestionRequestParams.safeParse({ questions: [{ id: 'b', header: 'H', question: 'Q?', kind: 'confirm', options: 'yes' }] });
    expect(zodProblems(r2.error!).map((p) => p.path)).toEqual(['questions[0].options']);
  });

  it('[Q2][T3] a request without questions names that beside its other faults', () => {
    const r = QuestionRequestParams.safeParse({ mode: 'later', timeoutMs: 'soon' });
    expect(zodProblems(r.error!).map((p) => p.path)).toEqual(['mode', 'timeoutMs', 'questions']);
  });

  it('[Q2] cuts a long header to 12 characters by code point instead of rejecting it', () => {
    const r = QuestionRequestParams.parse({
      questions: [{ ...good.questions[0], header: '  🚀 Deployment target  ' }],
    });
    expect(Array.from(r.questions![0].header)).toHaveLength(12);
    expect(r.questions![0].header.startsWith('🚀 Deploymen')).toBe(true);
  });

  it('[Q2] refuses duplicate question ids and more than 3 questions', () => {
    const q = good.questions[0];
    const dup = QuestionRequestParams.safeParse({ questions: [q, q] });
    expect(zodProblems(dup.error!).map((p) => p.path)).toContain('questions[1].id');
    const many = QuestionRequestParams.safeParse({ questions: [q, { ...q, id: 'b' }, { ...q, id: 'c' }, { ...q, id: 'd' }] });
    expect(zodProblems(many.error!).map((p) => p.path)).toContain('questions');
  });

  it('[Q2] keeps multiSelect only when true', () => {
    const r = QuestionRequestParams.parse({ questions: [{ ...good.questions[0], multiSelect: false }] });
    expect('multiSelect' in r.questions![0] && r.questions![0].multiSelect !== undefined).toBe(false);
  });

  it('[Q2][U16] takes an http or https url up to 2000 characters, and names the field for anything else', () => {
    const q = good.questions[0];
    expect(QuestionRequestParams.parse({ questions: [{ ...q, url: ' https://example.com/pr/42 ' }] }).questions![0].url).toBe('https://example.com/pr/42');
    expect(QuestionRequestParams.parse({ questions: [{ ...q, url: 'http://127.0.0.1:3000/login' }] }).questions![0].url).toBe('http://127.0.0.1:3000/login');
    for (const url of ['javascript:alert(1)', 'ftp://example.com/x', 'example.com', 'data:text/html,hi', '', `https://example.com/${'a'.repeat(2000)}`, 42]) {
      const r = QuestionRequestParams.safeParse({ questions: [{ ...q, url }] });
      expect(r.success, String(url).slice(0, 40)).toBe(false);
      expect(zodProblems(r.error!).map((p) => p.path)).toEqual(['questions[0].url']);
    }
  });

  it('[Q2] recognises authored Other options in their usual spellings', () => {
    for (const l of ['Other', 'other…', 'Other...', 'Other (please specify)']) expect(isAuthoredOther(l)).toBe(true);
    for (const l of ['Otherwise', 'Another option', 'Mother']) expect(isAuthoredOther(l)).toBe(false);
  });
});

describe('timeouts', () => {
  it('[Q3] defaults to 900 s and clamps to 30 s..3600 s', () => {
    expect(clampTimeoutMs(undefined)).toBe(900_000);
    expect(clampTimeoutMs(1)).toBe(30_000);
    expect(clampTimeoutMs(10_000_000)).toBe(3_600_000);
    expect(clampTimeoutMs(60_000)).toBe(60_000);
  });
});

describe('answers', () => {
  const items = [
    { id: 'env', header: 'Env', question: 'Where?', options: [{ label: 'Staging' }, { label: 'Production' }] },
    { id: 'notify', header: 'Notify', question: 'Who?', options: [{ label: 'Email' }, { label: 'Slack' }], multiSelect: true },
  ];
  it('[Q5] maps values equal to a label (any case) to the label and keeps free text', () => {
    const r = normaliseAnswers(items, { env: ['  staging '], notify: ['SLACK', 'my pager'] });
    expect(r).toEqual({ ok: true, answers: { env: ['Staging'], notify: ['Slack', 'my pager'] } });
  });
  it('[Q5] names each question whose answer is missing, blank or has several values on single-select', () => {
    const r = normaliseAnswers(items, { env: ['Staging', 'Production'], notify: ['  '] });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.problems.map((p) => p.questionId)).toEqual(['env', 'notify']);
    const missing = normaliseAnswers(items, { env: ['Staging'] });
    expect(missing.ok).toBe(false);
    if (!missing.ok) expect(missing.problems[0].questionId).toBe('notify');
  });
  it('[Q5] refuses answers over 4 000 characters', () => {
    const r = normaliseAnswers(items, { env: ['x'.repeat(4001)], notify: ['Email'] });
    expect(r.ok).toBe(false);
  });
});

describe('ids that name Object.prototype members', () => {
  const item = (id: string) => ({ id, header: id, question: `${id}?`, options: [{ label: 'Yes' }, { label: 'No' }] });

  it('[Q2] `constructor` is a legal question id; `__proto__` and `toString` are refused by the id rule', () => {
    expect(QuestionRequestParams.safeParse({ questions: [item('constructor')] }).success).toBe(true);
    const r = QuestionRequestParams.safeParse({ questions: [item('__proto__'), item('toString')] });
    expect(zodProblems(r.error!).map((p) => p.path)).toEqual(['questions[0].id', 'questions[1].id']);
  });

  it('[Q5] answers are read by own property: a missing `constructor` answer is named, a given one taken', () => {
    const items = [item('constructor'), item('valueof')];
    expect(normaliseAnswers(items, {})).toEqual({
      ok: false,
      problems: [
        { questionId: 'constructor', problem: 'needs an answer' },
        { questionId: 'valueof', problem: 'needs an answer' },
      ],
    });
    expect(normaliseAnswers(items, JSON.parse('{"constructor":["yes"],"valueof":["no"]}'))).toEqual({
      ok: true,
      answers: { constructor: ['Yes'], valueof: ['No'] },
    });
    const stray = normaliseAnswers(items, JSON.parse('{"constructor":["yes"],"valueof":["no"],"toString":["x"],"__proto__":["y"]}'));
    expect(stray.ok).toBe(false);
  });
});

describe('question detail', () => {
  const q = good.questions[0];
  it('[Q2][X2] keeps a detail exactly as given, whitespace and all', () => {
    const detail = '$ rm -rf build\n  --force\n\t<script>alert(1)</script>\n';
    const r = QuestionRequestParams.parse({ questions: [{ ...q, detail }] });
    expect(r.questions![0].detail).toBe(detail);
  });

  it('[Q2][X2] takes 16 000 characters and names the field past them, beside every other fault', () => {
    expect(QuestionRequestParams.parse({ questions: [{ ...q, detail: 'x'.repeat(16_000) }] }).questions![0].detail).toHaveLength(16_000);
    const r = QuestionRequestParams.safeParse({ questions: [{ ...q, question: '', detail: 'x'.repeat(16_001) }] });
    const problems = zodProblems(r.error!);
    expect(problems).toEqual(expect.arrayContaining([expect.objectContaining({ path: 'questions[0].detail', problem: 'detail must be at most 16000 characters' })]));
    expect(problems.map((p) => p.path)).toContain('questions[0].question');
    const wrong = QuestionRequestParams.safeParse({ questions: [{ ...q, detail: 42 }] });
    expect(zodProblems(wrong.error!).map((p) => p.path)).toContain('questions[0].detail');
  });

  it('[Q2] treats a blank detail as absent', () => {
    expect(QuestionRequestParams.parse({ questions: [{ ...q, detail: ' \n ' }] }).questions![0].detail).toBeUndefined();
  });
});
