import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { ASK_USER_DESCRIPTION, ASK_USER_INPUT_SCHEMA, resultText, toAskUserResult, validateAskUser } from './ask-user.ts';
import { problems, question } from '../testing/ask-user-calls.ts';

// T1, T2, T4: the result the model is given back, and the tool's published schema and description.
describe('results', () => {
  const qs = [
    { id: 'env', header: 'Deploy', question: 'Where?', options: [{ label: 'Staging' }, { label: 'Production' }] },
    { id: 'notify', header: 'Notify', question: 'Who?', options: [{ label: 'Email' }, { label: 'Slack' }] },
  ];

  it('[T2] maps terminal statuses to answered or no_answer', () => {
    expect(toAskUserResult('pending')).toBeNull();
    expect(toAskUserResult('answered', { env: ['Staging'] })).toEqual({ status: 'answered', answers: { answers: { env: ['Staging'] } } });
    expect(toAskUserResult('skipped')).toEqual({ status: 'no_answer', reason: 'skipped' });
    expect(toAskUserResult('expired')).toEqual({ status: 'no_answer', reason: 'expired' });
    expect(toAskUserResult('cancelled')).toEqual({ status: 'no_answer', reason: 'cancelled' });
  });

  it('[T2] gives the model one line per question', () => {
    const text = resultText(qs, { status: 'answered', answers: { answers: { env: ['Staging'], notify: ['Email', 'Slack'] } } });
    expect(text).toBe('Deploy: Staging\nNotify: Email, Slack');
  });

  it('[T2] names a chosen option without its " (Recommended)" mark, as `Deploy: Staging`, and keeps free text on its line', () => {
    const items = [
      { id: 'deploy_target', header: 'Deploy', question: 'Where?', options: [{ label: 'Staging (Recommended)' }, { label: 'Production' }] },
      { id: 'why', header: 'Why', question: 'Why?', options: [{ label: 'Speed' }, { label: 'Cost' }] },
    ];
    const answers = { deploy_target: ['Staging (Recommended)'], why: ['first line\n  second (Recommended)'] };
    expect(resultText(items, { status: 'answered', answers: { answers } })).toBe('Deploy: Staging\nWhy: first line second (Recommended)');
  });

  it('[T2][Q2] a question id `constructor` gets its own answer line; `__proto__` and `toString` ids are refused', () => {
    const text = resultText([{ id: 'constructor', header: 'Build', question: 'How?', options: [] }], { status: 'answered', answers: { answers: {} } });
    expect(text).toBe('Build: (no answer)');
    expect(validateAskUser({ questions: [question({ id: 'constructor' })] }).ok).toBe(true);
    expect(problems({ questions: [question({ id: '__proto__' }), question({ id: 'toString' })] }).map((p) => p.path)).toEqual([
      'questions[0].id',
      'questions[1].id',
    ]);
  });

  it('[T2] tells the model to continue on its own judgment after no_answer', () => {
    for (const reason of ['skipped', 'expired', 'cancelled'] as const) {
      const text = resultText(qs, { status: 'no_answer', reason });
      expect(text).toContain(`No answer (${reason})`);
      expect(text).toMatch(/continue with your best judgment/i);
    }
  });
});

describe('tool schema and description', () => {
  it('[T1] publishes the seed parameters as JSON Schema', () => {
    const s = ASK_USER_INPUT_SCHEMA;
    const item = s.properties!.questions.items!;
    expect(s.required).toEqual(['questions']);
    expect(s).not.toHaveProperty('$schema');
    expect(s.properties!.questions).toMatchObject({ type: 'array', minItems: 1, maxItems: 3 });
    expect(item.required).toEqual(['id', 'header', 'question', 'options']);
    expect(item.properties!.id.pattern).toBe('^[a-z][a-z0-9_]*$');
    expect(item.properties!.options).toMatchObject({ minItems: 2, maxItems: 4 });
    expect(item.properties!.options.items).toMatchObject({ required: ['label'], additionalProperties: false });
    expect(s.properties!.timeoutSeconds).toEqual({ type: 'integer', default: 900, description: expect.stringContaining('default 900') });
    expect(JSON.parse(JSON.stringify(s))).toEqual(s);
  });

  it('[T1][T3] a standard JSON Schema validator (as MCP clients run) takes what validateAskUser takes, and refuses malformed calls', () => {
    const check = new Ajv({ strict: true }).compile(ASK_USER_INPUT_SCHEMA);
    const question = { id: 'deploy_target', header: 'Deploy', question: 'Where?', options: [{ label: 'Staging (Recommended)' }, { label: 'Production', description: 'Real users' }] };
    const good = { questions: [question, { ...question, id: 'notify', multiSelect: true }], timeoutSeconds: 120 };
    expect(check(good)).toBe(true);
    expect(validateAskUser(good).ok).toBe(true);
    for (const bad of [
      {},
      { questions: [] },
      { questions: [question, question, question, question] },
      { questions: [{ ...question, id: 'Deploy Target' }] },
      { questions: [{ ...question, options: [{ label: 'Only one' }] }] },
      { questions: [{ ...question, extra: 1 }] },
      { questions: [question], timeoutSeconds: 1.5 },
    ]) {
      expect(check(bad), JSON.stringify(bad)).toBe(false);
      expect(validateAskUser(bad).ok, JSON.stringify(bad)).toBe(false);
    }
  });

  it('[T4] carries the model guidance', () => {
    const d = ASK_USER_DESCRIPTION;
    expect(d).toMatch(/genuinely belongs to the user/);
    expect(d).toMatch(/exactly one question/);
    expect(d).toMatch(/every selectable choice in `options`/);
    expect(d).toMatch(/multiSelect: true` only when several/);
    expect(d).toContain('" (Recommended)"');
    expect(d).toMatch(/Never add an "Other" option/);
    expect(d).toMatch(/Never ask for a password, API key, token or any other credential or secret/);
    expect(d).toMatch(/confirm your own plan/);
    expect(d).toMatch(/After no_answer, continue with your best judgment/);
  });
});
