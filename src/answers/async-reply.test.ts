import { describe, expect, it } from 'vitest';
import type { QuestionRecord } from '../protocol/index.ts';
import { normaliseAnswers } from './kinds/check-answers.ts';
import { formatAsyncAnswerText, parseAsyncAnswerText, readBackReply } from './async-reply.ts';

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

const rbEnv = { id: 'env', header: 'Environment', question: 'Where to deploy?', options: [{ label: 'Staging' }, { label: 'Production' }] };
const rbNotify = {
  id: 'notify',
  header: 'Notify',
  question: 'Who should hear about it?',
  options: [{ label: 'Email' }, { label: 'Slack' }],
  multiSelect: true,
};
const record = { questions: [rbEnv, rbNotify] };

describe('readBackReply (summary of an async answer)', () => {
  it('[U9][Q9] splits a reply sent from the dock per question', () => {
    const answers = { env: ['Production'], notify: ['Slack', 'Email'] };
    const text = formatAsyncAnswerText(record.questions, answers);
    expect(readBackReply(record, text, answers)).toEqual({
      perQuestion: [
        { questionId: 'env', header: 'Environment', question: 'Where to deploy?', answer: ['Production'] },
        { questionId: 'notify', header: 'Notify', question: 'Who should hear about it?', answer: ['Slack', 'Email'] },
      ],
    });
  });

  it('[U9] after reload (no outbox row) the text alone still splits when it reads back exactly', () => {
    const text = '> Environment\nStaging\n\n> Notify\nEmail';
    expect(readBackReply(record, text)).toMatchObject({ perQuestion: [{ answer: ['Staging'] }, { answer: ['Email'] }] });
    expect(readBackReply(record, text.replace(/\n/g, '\r\n') + '\n')).toMatchObject({ perQuestion: [{}, {}] });
  });

  it('[U9][Q9] structured answers whose free text holds a quoted heading still split: they write back to the saved text', () => {
    const answers = { env: ['Production\n> Notify'], notify: ['Email'] };
    const text = formatAsyncAnswerText(record.questions, answers);
    expect(readBackReply(record, text, answers)).toMatchObject({ perQuestion: [{ answer: ['Production\n> Notify'] }, { answer: ['Email'] }] });
  });

  it('[U9] quoted headings that make the split ambiguous show the saved reply text whole', () => {
    const text = '> Environment\nProduction, as in\n> Notify\nEmail\n\n> Notify\nSlack';
    expect(readBackReply(record, text)).toEqual({ whole: text });
  });

  it('[U9] a reply edited away from the structured answers shows whole', () => {
    const answers = { env: ['Production'], notify: ['Email'] };
    const edited = '> Environment\nProduction please\n\n> Notify\nEmail';
    expect(readBackReply(record, '> Environment\nProduction, but only after 5pm\nthanks', answers)).toEqual({
      whole: '> Environment\nProduction, but only after 5pm\nthanks',
    });
    // Edited yet still in the exact Q9 form: that is what was saved, so it splits.
    expect(readBackReply(record, edited, answers)).toMatchObject({ perQuestion: [{ answer: ['Production please'] }, { answer: ['Email'] }] });
  });

  it('[U9] a hand-written reply that only loosely follows the form shows whole rather than a guess', () => {
    expect(readBackReply(record, '> environment\nproduction\n\n> notify\nemail,slack')).toEqual({
      whole: '> environment\nproduction\n\n> notify\nemail,slack',
    });
  });

  it('[U9] uses the record\'s answers when they write back to the saved text', () => {
    // Free text holding a quoted heading: the text alone is ambiguous, so only the record's answers can split it.
    const answers = { env: ['Production\n> Notify'], notify: ['Slack'] };
    const text = formatAsyncAnswerText(record.questions, answers);
    expect(readBackReply(record, text)).toEqual({ whole: text });
    expect(readBackReply({ ...record, answers }, text)).toMatchObject({ perQuestion: [{ answer: ['Production\n> Notify'] }, { answer: ['Slack'] }] });
  });

  it('[U9] answers missing a question never split', () => {
    expect(readBackReply(record, '> Environment\nStaging\n\n> Notify\n', { env: ['Staging'], notify: [] })).toEqual({
      whole: '> Environment\nStaging\n\n> Notify\n',
    });
  });
});

describe('ids named like Object.prototype members', () => {
  const item = (id: string) => ({ id, header: id, question: `${id}?`, options: [{ label: 'Yes' }, { label: 'No' }] });

  it('[Q9] the async reply text of a `constructor` question carries its answer and reads back', () => {
    const items = [item('constructor')];
    expect(formatAsyncAnswerText(items, {})).toBe('> constructor\n');
    expect(parseAsyncAnswerText(items, formatAsyncAnswerText(items, { constructor: ['Yes'] }))).toEqual({ constructor: ['Yes'] });
  });
});
