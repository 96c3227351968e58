import { describe, expect, it } from 'vitest';
import { QuestionList } from '../protocol/index.ts';
import { fieldQuestion, readField, schemaFields, type SchemaProperty } from './elicitation-fields.ts';

const field = (prop: SchemaProperty, required = true) =>
  schemaFields({ properties: { value: prop }, required: required ? ['value'] : [] })[0];
const asked = (prop: SchemaProperty, required = true) => fieldQuestion(field(prop, required));

describe('X5/Q12 schema mapping: each field asked as the kind that fits', () => {
  it('[X5][Q12] typed fields are input questions with their spec, never options to pick from', () => {
    expect(asked({ type: 'string', title: 'Name' })).toMatchObject({ kind: 'input', input: { type: 'string' }, header: 'Name' });
    for (const format of ['email', 'uri', 'date', 'date-time'] as const) {
      expect(asked({ type: 'string', format })).toMatchObject({ kind: 'input', input: { type: format } });
    }
    expect(asked({ type: 'integer', minimum: 1, maximum: 5, default: 2 })).toMatchObject({
      kind: 'input',
      input: { type: 'integer', minimum: 1, maximum: 5, default: 2 },
      detail: 'Expects: A whole number, at least 1, at most 5, suggested: 2, required',
    });
    expect(asked({ type: 'number', minimum: 0.5 }, false)).toMatchObject({ kind: 'input', input: { type: 'number', minimum: 0.5, required: false } });
    expect(asked({ type: 'string', minLength: 3, maxLength: 40 })).toMatchObject({ kind: 'input', input: { type: 'string', minLength: 3, maxLength: 40 } });
    // An exclusive integer bound is the next whole number; an exclusive number bound is held by the gateway up to
    // the bound's own value, which the agent's check refuses.
    expect(asked({ type: 'integer', exclusiveMinimum: 0, exclusiveMaximum: 10 }).input).toEqual({ type: 'integer', minimum: 1, maximum: 9 });
    expect(asked({ type: 'number', exclusiveMinimum: 0, maximum: 1 }).input).toEqual({ type: 'number', minimum: 0, maximum: 1 });
    expect(readField(field({ type: 'number', exclusiveMinimum: 0, maximum: 1 }), ['0'])).toEqual({ problem: '0 is not more than 0' });
    // A default the input spec cannot carry (of another type, or too long to be an answer) is left out, never refused.
    expect(asked({ type: 'integer', default: 'two' }).input).toEqual({ type: 'integer' });
    expect(QuestionList.safeParse([asked({ type: 'string', default: 'x'.repeat(5000) })]).success).toBe(true);
    for (const prop of [{ type: 'string' }, { type: 'number' }, { type: 'boolean' }] as SchemaProperty[]) {
      expect(asked(prop, false).options ?? []).toEqual([]);
    }
  });

  it('[X5][Q12] a required yes/no is a confirm; an optional one, or one with a default, a boolean input that may stay empty', () => {
    expect(asked({ type: 'boolean', title: 'Backups' })).toMatchObject({ kind: 'confirm', header: 'Backups' });
    expect(asked({ type: 'boolean' }, false)).toMatchObject({ kind: 'input', input: { type: 'boolean', required: false } });
    expect(asked({ type: 'boolean', default: true })).toMatchObject({ kind: 'input', input: { type: 'boolean', default: true } });
  });

  it('[X5][Q12] a required list of 2-4 is a choice with its titles; a longer or optional one an input with enum', () => {
    const region = asked({ type: 'string', oneOf: [{ const: 'eu', title: 'Europe' }, { const: 'us', title: 'America' }], default: 'us' });
    expect(region.kind).toBeUndefined();
    expect(region.options).toEqual([{ label: 'America (Recommended)', description: 'The default' }, { label: 'Europe' }]);
    const size = asked({ type: 'string', enum: ['xs', 's', 'm', 'l', 'xl'], default: 'm' });
    expect(size).toMatchObject({ kind: 'input', input: { type: 'string', enum: ['xs', 's', 'm', 'l', 'xl'], default: 'm' } });
    expect(asked({ type: 'string', enum: ['a', 'b'] }, false)).toMatchObject({ kind: 'input', input: { enum: ['a', 'b'], required: false } });
    expect(asked({ type: 'array', items: { enum: ['a', 'b', 'c'] } })).toMatchObject({ multiSelect: true, options: [{ label: 'a' }, { label: 'b' }, { label: 'c' }] });
  });

  it('[X5][X6] no field offers Decline, Cancel or Leave empty as if they were its answers: those belong to the prompt', () => {
    const fields = schemaFields({
      properties: { name: { type: 'string' }, age: { type: 'integer' }, agree: { type: 'boolean' }, size: { type: 'string', enum: ['s', 'm', 'l', 'xl', 'xxl'] } },
      required: ['agree'],
    });
    const labels = fields.flatMap((f) => (fieldQuestion(f).options ?? []).map((o) => o.label));
    expect(labels).not.toEqual(expect.arrayContaining(['Decline']));
    expect(labels).not.toEqual(expect.arrayContaining(['Cancel']));
    expect(labels).not.toEqual(expect.arrayContaining(['Leave empty']));
    const questions = fields.map((f) => fieldQuestion(f));
    expect(QuestionList.safeParse(questions.slice(0, 3)).success).toBe(true);
    expect(QuestionList.safeParse(questions.slice(3)).success).toBe(true);
  });
});

describe('X5/Q12 answers read back typed from the kind', () => {
  it('[X5][Q12] a number is a number, a boolean a boolean, an enum its own value', () => {
    expect(readField(field({ type: 'integer', minimum: 1, maximum: 5 }), ['2'])).toEqual({ value: 2 });
    expect(readField(field({ type: 'number' }), ['-1.5e2'])).toEqual({ value: -150 });
    expect(readField(field({ type: 'boolean' }, false), ['true'])).toEqual({ value: true });
    expect(readField(field({ type: 'boolean' }, false), ['false'])).toEqual({ value: false });
    expect(readField(field({ type: 'boolean' }), ['Yes'])).toEqual({ value: true });
    expect(readField(field({ type: 'boolean' }), ['No'])).toEqual({ value: false });
    expect(readField(field({ type: 'string', oneOf: [{ const: 'eu', title: 'Europe' }, { const: 'us', title: 'America' }] }), ['America'])).toEqual({ value: 'us' });
    expect(readField(field({ type: 'string', oneOf: [{ const: 'eu', title: 'Europe' }, { const: 'us', title: 'America' }], default: 'us' }), ['America (Recommended)'])).toEqual({ value: 'us' });
    const long = field({ type: 'string', oneOf: ['a', 'b', 'c', 'd', 'e'].map((c) => ({ const: c, title: `Tier ${c.toUpperCase()}` })) });
    expect(readField(long, ['Tier E'])).toEqual({ value: 'e' });
    expect(readField(field({ type: 'string', format: 'email' }), ['a@b.example'])).toEqual({ value: 'a@b.example' });
    expect(readField(field({ type: 'array', items: { enum: ['a', 'b', 'c'] } }), ['a', 'c'])).toEqual({ value: ['a', 'c'] });
    expect(readField(field({ type: 'array', items: { enum: ['a', 'b', 'c'] }, maxItems: 1 }), ['a', 'c'])).toEqual({ problem: 'choose at most 1' });
  });

  it('[X5][Q12] an optional field left out is empty; a required one left out is refused', () => {
    expect(readField(field({ type: 'string' }, false), undefined)).toEqual({ empty: true });
    expect(readField(field({ type: 'integer' }, false), [])).toEqual({ empty: true });
    expect(readField(field({ type: 'string', title: 'Name' }), undefined)).toEqual({ problem: 'Name is required' });
  });

  it('[X5] an exclusive bound the gateway was not given is checked here and names the rule', () => {
    const ratio = field({ type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 1 });
    expect(readField(ratio, ['0.5'])).toEqual({ value: 0.5 });
    expect(readField(ratio, ['0'])).toEqual({ problem: '0 is not more than 0' });
    expect(readField(ratio, ['1'])).toEqual({ problem: '1 is not less than 1' });
    expect(fieldQuestion(ratio).detail).toBe('Expects: A number, more than 0, less than 1, required');
    const draft4 = field({ type: 'number', minimum: 0, exclusiveMinimum: true, maximum: 1, exclusiveMaximum: false });
    expect(readField(draft4, ['0'])).toEqual({ problem: '0 is not more than 0' });
    expect(readField(draft4, ['1'])).toEqual({ value: 1 });
  });
});
