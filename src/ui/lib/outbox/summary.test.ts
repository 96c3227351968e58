import { describe, expect, it } from 'vitest';
import { formatAsyncAnswerText } from '../../../protocol/index.ts';
import { readBackReply } from './summary.ts';

const env = { id: 'env', header: 'Environment', question: 'Where to deploy?', options: [{ label: 'Staging' }, { label: 'Production' }] };
const notify = {
  id: 'notify',
  header: 'Notify',
  question: 'Who should hear about it?',
  options: [{ label: 'Email' }, { label: 'Slack' }],
  multiSelect: true,
};
const record = { questions: [env, notify] };

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
    const text = '> Environment\nStaging\n\n> Notify\nSlack';
    const withAnswers = { ...record, answers: { env: ['Staging'], notify: ['Slack'] } };
    expect(readBackReply(withAnswers, text)).toMatchObject({ perQuestion: [{ answer: ['Staging'] }, { answer: ['Slack'] }] });
  });

  it('[U9] answers missing a question never split', () => {
    expect(readBackReply(record, '> Environment\nStaging\n\n> Notify\n', { env: ['Staging'], notify: [] })).toEqual({
      whole: '> Environment\nStaging\n\n> Notify\n',
    });
  });
});
