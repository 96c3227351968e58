import { describe, expect, it } from 'vitest';
import { readableOutcome, readablePrompt, replyHint, type ReadableItem } from './readable-prompt.ts';

const env: ReadableItem = {
  id: 'env',
  header: 'Environment',
  question: 'Where should I deploy?',
  options: [{ label: 'Staging (Recommended)', description: 'Safe to break' }, { label: 'Production' }],
};
const notify: ReadableItem = {
  id: 'notify',
  header: 'Notify',
  question: 'Who should hear about it?',
  options: [{ label: 'Email' }, { label: 'Slack' }, { label: 'Pager' }],
  multiSelect: true,
};

describe('readablePrompt', () => {
  it('[H3] numbers each question and its options beneath it, then one line on how to reply', () => {
    expect(readablePrompt([env, notify])).toBe(
      [
        '1. Environment: Where should I deploy?',
        '   1. Staging (Recommended) — Safe to break',
        '   2. Production',
        '',
        '2. Notify: Who should hear about it? (choose one or more)',
        '   1. Email',
        '   2. Slack',
        '   3. Pager',
        '',
        'Reply with one line per question: its number, then a number, an option or your own words (like 1: 2), commas between several choices, or skip.',
      ].join('\n'),
    );
  });

  it('[H3] a single multi-select question says to separate choices with commas', () => {
    const text = readablePrompt({ questions: [notify] });
    expect(text.split('\n')[0]).toBe('1. Notify: Who should hear about it? (choose one or more)');
    expect(text.split('\n').at(-1)).toBe(
      'Reply with the numbers or options you choose, separated by commas (like 1, 3), or your own words, or skip.',
    );
  });

  it('[H3] a single single-select question asks for one number, option or own words', () => {
    expect(replyHint([env])).toBe('Reply with a number, an option or your own words, or skip.');
    expect(replyHint([env, { ...env, id: 'other_env' }])).not.toContain('commas');
  });

  it('[H3] a header equal to the question is not repeated, and line breaks cannot break the numbering', () => {
    const item: ReadableItem = { ...env, header: 'Deploy?', question: 'Deploy?\nnow' };
    expect(readablePrompt([item]).split('\n')[0]).toBe('1. Deploy?: Deploy? now');
    expect(readablePrompt([{ ...env, header: 'deploy?', question: 'Deploy?' }]).split('\n')[0]).toBe('1. Deploy?');
  });

  it('[PT4] does not offer skip when an option is itself labelled Skip', () => {
    const item: ReadableItem = { ...env, options: [{ label: 'Skip' }, { label: 'Run' }] };
    expect(replyHint([item])).toBe('Reply with a number, an option or your own words.');
  });

  it('[U16] a question with a url shows its link', () => {
    expect(readablePrompt([{ ...env, url: 'https://example.com/login' }])).toContain('   Open link: https://example.com/login');
  });
});

describe('readableOutcome', () => {
  const record = (patch: object) => ({ questions: [env], status: 'pending' as const, ...patch });

  it('[H5] shows the answer of one question, or each header with its answer for several', () => {
    expect(readableOutcome(record({ status: 'answered', answers: { env: ['Staging (Recommended)'] } }))).toBe('Answered: Staging');
    // Only an option's mark goes: free text is shown as it was typed.
    expect(readableOutcome(record({ status: 'answered', answers: { env: ['Canary (recommended)'] } }))).toBe('Answered: Canary (recommended)');
    expect(
      readableOutcome({
        questions: [env, notify],
        status: 'answered',
        answers: { env: ['Production'], notify: ['Email', 'Slack'] },
      }),
    ).toBe('Answered: Environment: Production · Notify: Email, Slack');
  });

  it('[H5] names the other outcomes, and nothing while pending', () => {
    expect(readableOutcome(record({ status: 'skipped' }))).toBe('Skipped');
    expect(readableOutcome(record({ status: 'expired' }))).toBe('Expired');
    expect(readableOutcome(record({ status: 'cancelled' }))).toBe('Cancelled');
    expect(readableOutcome(record({}))).toBeNull();
  });
});
