import { describe, expect, it } from 'vitest';
import { formatAsyncAnswerText, normaliseAnswers, parseAsyncAnswerText, type QuestionRecord } from './question.ts';

type Items = QuestionRecord['questions'];

const lunch = { id: 'lunch', header: 'Lunch', question: 'What should we order?', options: [{ label: 'Pizza (Recommended)' }, { label: 'Sushi' }, { label: 'Salad' }] };
const env = { id: 'env', header: 'Environment', question: 'Where to deploy?', options: [{ label: 'Staging (Recommended)' }, { label: 'Production' }] };
const notify = {
  id: 'notify',
  header: 'Notify',
  question: 'Who should hear about it?',
  options: [{ label: 'Email' }, { label: 'Slack' }, { label: 'Pager' }],
  multiSelect: true,
};

describe('formatAsyncAnswerText (Q9)', () => {
  it('[Q9] writes one quoted heading per question, the answer on the next line, blocks parted by a blank line', () => {
    expect(formatAsyncAnswerText([env, notify], { env: ['Production'], notify: ['Email', 'Pager'] })).toBe(
      '> Environment\nProduction\n\n> Notify\nEmail, Pager',
    );
  });

  it('[Q9] keeps a heading on its quote line even when the header holds a line break', () => {
    const odd = { ...lunch, header: 'Lunch\ntoday' };
    expect(formatAsyncAnswerText([odd], { lunch: ['Sushi'] })).toBe('> Lunch today\nSushi');
  });

  it('[Q9] falls back to the question when a header is empty', () => {
    expect(formatAsyncAnswerText([{ ...lunch, header: '' }], { lunch: ['Sushi'] })).toBe('> What should we order?\nSushi');
  });
});

describe('parseAsyncAnswerText (Q9)', () => {
  const roundTrips: Array<[string, Items, Record<string, string[]>]> = [
    ['one single-select question', [lunch], { lunch: ['Sushi'] }],
    ['free text ("Other")', [lunch], { lunch: ['Tacos from the corner'] }],
    ['free text over several lines with a blank line', [lunch], { lunch: ['Tacos\n\nno onions'] }],
    ['three questions', [env, notify, lunch], { env: ['Staging (Recommended)'], notify: ['Slack'], lunch: ['Salad'] }],
    ['multi-select in the order chosen, not option order', [notify], { notify: ['Pager', 'Email'] }],
    ['multi-select free text holding commas, beside choices', [notify], { notify: ['Email', 'call me, maybe'] }],
    ['multi-select free text before a choice', [notify], { notify: ['only on weekdays, please', 'Slack'] }],
    ['a label holding a comma', [{ ...notify, options: [{ label: 'Yes, please' }, { label: 'No' }] }], { notify: ['No', 'Yes, please'] }],
    ['a label starting with another label', [{ ...notify, options: [{ label: 'Slack' }, { label: 'Slack DM' }] }], { notify: ['Slack DM', 'Slack'] }],
    ['replacement patterns in free text', [notify], { notify: ['Email', 'cost $1, $& off'] }],
    ['a header with a line break', [{ ...lunch, header: 'Lunch\ntoday' }], { lunch: ['Sushi'] }],
  ];
  it.each(roundTrips)('[Q9] format and parse-back round trip: %s', (_name, items, answers) => {
    const text = formatAsyncAnswerText(items, answers);
    expect(parseAsyncAnswerText(items, text)).toEqual(answers);
    expect(formatAsyncAnswerText(items, parseAsyncAnswerText(items, text)!)).toBe(text);
  });

  it('[Q9] format and parse-back round trip, ambiguous headings return null', () => {
    const answers = { env: ['Production'], notify: ['Email'] };
    const text = formatAsyncAnswerText([env, notify], answers);
    expect(parseAsyncAnswerText([env, notify], text)).toEqual(answers);
    // A quoted line inside an answer: it cannot be told from a heading.
    expect(parseAsyncAnswerText([env, notify], formatAsyncAnswerText([env, notify], { env: ['> Notify'], notify: ['Email'] }))).toBeNull();
    expect(parseAsyncAnswerText([lunch], '> Lunch\nas I said:\n> Pizza is fine')).toBeNull();
    // Two questions with the same heading (case-insensitive).
    expect(parseAsyncAnswerText([lunch, { ...env, header: 'LUNCH' }], '> Lunch\nSushi\n\n> LUNCH\nProduction')).toBeNull();
  });

  it.each([
    ['a heading missing', '> Environment\nProduction'],
    ['headings out of order', '> Notify\nEmail\n\n> Environment\nProduction'],
    ['a heading repeated', '> Environment\nProduction\n\n> Environment\nStaging'],
    ['text before the first heading', 'Here you go:\n> Environment\nProduction\n\n> Notify\nEmail'],
    ['an empty answer', '> Environment\n\n> Notify\nEmail'],
    ['a heading that is not the question\'s', '> Env\nProduction\n\n> Notify\nEmail'],
  ])('[Q9] returns null for %s', (_name, text) => {
    expect(parseAsyncAnswerText([env, notify], text)).toBeNull();
  });

  it('[Q9] reads headings case- and space-insensitively, with CRLF and trailing blank lines', () => {
    expect(parseAsyncAnswerText([env, notify], '>environment  \r\nproduction\r\n\r\n>  NOTIFY\r\nemail ,slack\r\n\r\n')).toEqual({
      env: ['Production'],
      notify: ['Email', 'Slack'],
    });
  });

  it('[Q9] gives option labels their authored spelling and drops repeated choices', () => {
    expect(parseAsyncAnswerText([notify], '> Notify\nemail, EMAIL, , Slack,')).toEqual({ notify: ['Email', 'Slack'] });
  });

  it('[Q9] keeps a single-select answer whole, commas and all', () => {
    expect(parseAsyncAnswerText([lunch], '> Lunch\nSushi, Salad')).toEqual({ lunch: ['Sushi, Salad'] });
  });

  it('[Q9][Q5] what it reads back passes the gateway\'s answer check unchanged', () => {
    const items = [env, notify];
    const parsed = parseAsyncAnswerText(items, '> Environment\nstaging (recommended)\n\n> Notify\nPager, text me, Email')!;
    const checked = normaliseAnswers(items, parsed);
    expect(checked).toEqual({ ok: true, answers: parsed });
    expect(parsed).toEqual({ env: ['Staging (Recommended)'], notify: ['Pager', 'text me', 'Email'] });
  });
});
