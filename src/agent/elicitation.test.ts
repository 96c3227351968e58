import { describe, expect, it } from 'vitest';
import { QuestionList } from '../protocol/index.ts';
import { fieldQuestion, readField, schemaFields, type SchemaProperty } from './elicitation.ts';

const field = (prop: SchemaProperty, required = true) =>
  schemaFields({ properties: { value: prop }, required: required ? ['value'] : [] })[0];

describe('X5 schema mapping', () => {
  it('[X5] every field becomes a valid askdock question (2-4 options, snake_case ids)', () => {
    const fields = schemaFields({
      properties: {
        firstName: { type: 'string', title: 'First name' },
        'API Region': { type: 'string', oneOf: [{ const: 'eu', title: 'Europe' }, { const: 'us', title: 'America' }] },
        tags: { type: 'array', items: { type: 'string', enum: ['a', 'b', 'c'] } },
        agree: { type: 'boolean', default: false },
      },
      required: ['firstName'],
    });
    expect(fields.map((f) => f.id)).toEqual(['first_name', 'api_region', 'tags', 'agree']);
    const questions = fields.map((f) => fieldQuestion(f, 'srv'));
    expect(QuestionList.safeParse(questions).success).toBe(false); // four questions: more than one prompt holds
    expect(QuestionList.safeParse(questions.slice(0, 3)).success).toBe(true);
    expect(QuestionList.safeParse(questions.slice(3)).success).toBe(true);
    expect(questions[0].options.map((o) => o.label)).toEqual(['Decline', 'Cancel']);
    expect(questions[1].options.map((o) => o.label)).toEqual(['Europe', 'America']);
    expect(questions[2]).toMatchObject({ multiSelect: true, options: [{ label: 'a' }, { label: 'b' }, { label: 'c' }] });
    expect(questions[3].options.map((o) => o.label)).toEqual(['No (Recommended)', 'Yes']);
  });

  it('[X5] answers are typed by the schema: oneOf gives its const, boolean true/false, arrays their values', () => {
    expect(readField(field({ type: 'string', oneOf: [{ const: 'eu', title: 'Europe' }, { const: 'us', title: 'America' }] }), ['America'])).toEqual({ value: 'us' });
    expect(readField(field({ type: 'boolean', default: false }), ['No (Recommended)'])).toEqual({ value: false });
    expect(readField(field({ type: 'array', items: { enum: ['a', 'b', 'c'] } }), ['a', 'c'])).toEqual({ value: ['a', 'c'] });
    expect(readField(field({ type: 'array', items: { enum: ['a', 'b', 'c'] }, maxItems: 1 }), ['a', 'c'])).toEqual({ problem: 'choose at most 1' });
  });

  it('[X5] free text is checked against type, bounds, length and format', () => {
    expect(readField(field({ type: 'number', minimum: 0.5, maximum: 2 }), ['1.5'])).toEqual({ value: 1.5 });
    expect(readField(field({ type: 'number', minimum: 0.5 }), ['0.1'])).toEqual({ problem: '0.1 is less than 0.5' });
    expect(readField(field({ type: 'integer' }), ['2.5'])).toEqual({ problem: '"2.5" is not a whole number' });
    expect(readField(field({ type: 'number' }), ['lots'])).toEqual({ problem: '"lots" is not a number' });
    expect(readField(field({ type: 'string', minLength: 3 }), ['ab'])).toEqual({ problem: 'it must be at least 3 characters' });
    expect(readField(field({ type: 'string', maxLength: 3 }), ['abcd'])).toEqual({ problem: 'it must be at most 3 characters' });
    expect(readField(field({ type: 'string', format: 'email' }), ['a@b.example'])).toEqual({ value: 'a@b.example' });
    expect(readField(field({ type: 'string', format: 'uri' }), ['not a uri'])).toEqual({ problem: '"not a uri" is not an address (URI)' });
    expect(readField(field({ type: 'string', format: 'uri' }), ['https://example.com/x'])).toEqual({ value: 'https://example.com/x' });
    expect(readField(field({ type: 'string', format: 'date' }), ['2026-12-03'])).toEqual({ value: '2026-12-03' });
    expect(readField(field({ type: 'string', format: 'date' }), ['3 Dec'])).toMatchObject({ problem: expect.stringContaining('not a date') });
    expect(readField(field({ type: 'string', format: 'date-time' }), ['2026-12-03T08:00:00Z'])).toEqual({ value: '2026-12-03T08:00:00Z' });
    expect(readField(field({ type: 'string', format: 'date-time' }), ['2026-12-03'])).toMatchObject({ problem: expect.stringContaining('date and time') });
  });

  it('[X5] minimum and maximum are inclusive: an integer 1..5 takes 1 and 5 and refuses 0 and 6', async () => {
    const replicas = field({ type: 'integer', minimum: 1, maximum: 5 });
    expect(readField(replicas, ['1'])).toEqual({ value: 1 });
    expect(readField(replicas, ['5'])).toEqual({ value: 5 });
    expect(readField(replicas, ['0'])).toEqual({ problem: '0 is less than 1' });
    expect(readField(replicas, ['6'])).toEqual({ problem: '6 is more than 5' });
    expect(fieldQuestion(replicas, 'srv').detail).toBe('Expects: A whole number, at least 1, at most 5, required');
  });

  it('[X5] exclusiveMinimum and exclusiveMaximum are exclusive (JSON Schema 2020-12 numbers, draft 4 booleans)', async () => {
    const ratio = field({ type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 1 });
    expect(readField(ratio, ['0.5'])).toEqual({ value: 0.5 });
    expect(readField(ratio, ['0'])).toEqual({ problem: '0 is not more than 0' });
    expect(readField(ratio, ['1'])).toEqual({ problem: '1 is not less than 1' });
    expect(readField(ratio, ['-0.1'])).toEqual({ problem: '-0.1 is not more than 0' });
    expect(fieldQuestion(ratio, 'srv').detail).toBe('Expects: A number, more than 0, less than 1, required');
    // An inclusive number keeps its ends.
    const share = field({ type: 'number', minimum: 0, maximum: 1 });
    expect(readField(share, ['0'])).toEqual({ value: 0 });
    expect(readField(share, ['1'])).toEqual({ value: 1 });
    // Draft 4: `true` makes minimum / maximum exclusive, `false` leaves them inclusive.
    const draft4 = field({ type: 'number', minimum: 0, exclusiveMinimum: true, maximum: 1, exclusiveMaximum: false });
    expect(readField(draft4, ['0'])).toEqual({ problem: '0 is not more than 0' });
    expect(readField(draft4, ['1'])).toEqual({ value: 1 });
    // Both kinds given: the tighter bound rules.
    const both = field({ type: 'integer', minimum: 1, exclusiveMinimum: 1, maximum: 10, exclusiveMaximum: 5 });
    expect(readField(both, ['1'])).toEqual({ problem: '1 is not more than 1' });
    expect(readField(both, ['2'])).toEqual({ value: 2 });
    expect(readField(both, ['5'])).toEqual({ problem: '5 is not less than 5' });
  });

  it('[X5] minLength and maxLength are inclusive, counted in characters', async () => {
    const code = field({ type: 'string', minLength: 3, maxLength: 5 });
    expect(readField(code, ['abc'])).toEqual({ value: 'abc' });
    expect(readField(code, ['abcde'])).toEqual({ value: 'abcde' });
    expect(readField(code, ['ab'])).toEqual({ problem: 'it must be at least 3 characters' });
    expect(readField(code, ['abcdef'])).toEqual({ problem: 'it must be at most 5 characters' });
    // Characters, not UTF-16 units: five emoji are five characters.
    expect(readField(code, ['\u{1F600}'.repeat(5)])).toEqual({ value: '\u{1F600}'.repeat(5) });
  });

  it('[X5] more than 4 values: free text checked against the list; required cannot be left empty', () => {
    const sizes = field({ type: 'string', enum: ['xs', 's', 'm', 'l', 'xl'] });
    expect(readField(sizes, ['XL'])).toEqual({ value: 'xl' });
    expect(readField(sizes, ['huge'])).toEqual({ problem: '"huge" is not one of: xs, s, m, l, xl' });
    expect(fieldQuestion(sizes, 'srv').detail).toBe('Expects: One of: xs, s, m, l, xl, required');
    expect(readField(field({ type: 'string' }), ['Leave empty'])).toEqual({ problem: 'value is required' });
    expect(readField(field({ type: 'string' }, false), ['Leave empty'])).toEqual({ special: 'empty' });
    expect(readField(field({ type: 'string' }), ['Decline'])).toEqual({ special: 'decline' });
  });
});
