import { describe, expect, it } from 'vitest';
import type { QuestionRecord } from '../protocol/index.ts';
import { describePlainTextProblems, readAsChoice, readPlainTextReply } from './plain-text.ts';

type Items = QuestionRecord['questions'];

const env: Items[number] = {
  id: 'env',
  header: 'Environment',
  question: 'Where should I deploy?',
  options: [{ label: 'Staging (Recommended)', description: 'Safe.' }, { label: 'Production' }],
};
const notify: Items[number] = {
  id: 'notify',
  header: 'Notify',
  question: 'Who should I notify?',
  options: [{ label: 'Email' }, { label: 'Slack' }, { label: 'Pager' }],
  multiSelect: true,
};
const deploy = [env, notify];

describe('plain-text replies', () => {
  it('[PT1] a number takes option n, a label (any case, with or without (Recommended)) takes that option, else free text', () => {
    expect(readPlainTextReply([env], '1')).toEqual({ outcome: 'answered', answers: { env: ['Staging (Recommended)'] } });
    expect(readPlainTextReply([env], ' 2 ')).toEqual({ outcome: 'answered', answers: { env: ['Production'] } });
    expect(readPlainTextReply([env], 'staging')).toEqual({ outcome: 'answered', answers: { env: ['Staging (Recommended)'] } });
    expect(readPlainTextReply([env], 'STAGING (recommended)')).toEqual({
      outcome: 'answered',
      answers: { env: ['Staging (Recommended)'] },
    });
    expect(readPlainTextReply([env], 'production')).toEqual({ outcome: 'answered', answers: { env: ['Production'] } });
    // A number past the options is not an option: it is what the person wrote.
    expect(readPlainTextReply([env], '3')).toEqual({ outcome: 'answered', answers: { env: ['3'] } });
    expect(readPlainTextReply([env], '  the QA box, please ')).toEqual({ outcome: 'answered', answers: { env: ['the QA box, please'] } });
  });

  it('[PT1] text equal to one label takes that option, even beside a label that reads the same without its (Recommended) mark', () => {
    const both = { id: 'pick', header: 'Pick', question: 'Which?', options: [{ label: 'Staging' }, { label: 'Staging (Recommended)' }] };
    expect(readPlainTextReply([both], 'staging (recommended)')).toEqual({ outcome: 'answered', answers: { pick: ['Staging (Recommended)'] } });
    expect(readPlainTextReply([both], 'Staging')).toEqual({ outcome: 'answered', answers: { pick: ['Staging'] } });
  });

  it('[PT1] a blank reply fits no rule and names the question', () => {
    const r = readPlainTextReply([env], '   ');
    expect(r).toEqual({ outcome: 'invalid', problems: [{ questionId: 'env', problem: 'needs an answer' }] });
  });

  it('[PT2] multi-select splits on commas: numbers and labels choose, the rest is one free-text value beside them', () => {
    expect(readPlainTextReply([notify], '1, 3')).toEqual({ outcome: 'answered', answers: { notify: ['Email', 'Pager'] } });
    expect(readPlainTextReply([notify], 'slack,EMAIL')).toEqual({ outcome: 'answered', answers: { notify: ['Slack', 'Email'] } });
    expect(readPlainTextReply([notify], '2, the ops list, and Bob')).toEqual({
      outcome: 'answered',
      answers: { notify: ['Slack', 'the ops list, and Bob'] },
    });
    expect(readPlainTextReply([notify], '1, 1, email')).toEqual({ outcome: 'answered', answers: { notify: ['Email'] } });
    expect(readPlainTextReply([notify], 'nobody')).toEqual({ outcome: 'answered', answers: { notify: ['nobody'] } });
  });

  it('[PT2] a label holding a comma is still taken whole', () => {
    const item = { ...notify, options: [{ label: 'Yes, loudly' }, { label: 'No' }] };
    expect(readPlainTextReply([item], 'yes, loudly, 2')).toEqual({ outcome: 'answered', answers: { notify: ['Yes, loudly', 'No'] } });
  });

  it('[PT3] several questions: one `<key>: <reply>` line each, keyed by number, id or header in any case', () => {
    expect(readPlainTextReply(deploy, '1: 1\n2: 1, 2')).toEqual({
      outcome: 'answered',
      answers: { env: ['Staging (Recommended)'], notify: ['Email', 'Slack'] },
    });
    expect(readPlainTextReply(deploy, 'NOTIFY: pager\nenv: production')).toEqual({
      outcome: 'answered',
      answers: { env: ['Production'], notify: ['Pager'] },
    });
    expect(readPlainTextReply(deploy, 'Environment : the QA box: it is free\r\nnotify:slack')).toEqual({
      outcome: 'answered',
      answers: { env: ['the QA box: it is free'], notify: ['Slack'] },
    });
  });

  it('[PT3] a line without a key goes on with the previous reply', () => {
    expect(readPlainTextReply(deploy, '1: staging but\nonly after noon\n2: 1')).toEqual({
      outcome: 'answered',
      answers: { env: ['staging but\nonly after noon'], notify: ['Email'] },
    });
  });

  it('[PT3] a reply that leaves a question out answers nothing and says which', () => {
    const r = readPlainTextReply(deploy, '1: staging');
    expect(r.outcome).toBe('invalid');
    if (r.outcome !== 'invalid') return;
    expect(r.problems.map((p) => p.questionId)).toEqual(['notify']);
    expect(describePlainTextProblems(deploy, r.problems)).toBe('Notify is left out: add a line "2: <reply>" (or "Notify: <reply>")');
    const plain = readPlainTextReply(deploy, 'staging');
    expect(plain.outcome === 'invalid' && plain.problems.map((p) => p.questionId)).toEqual(['env', 'notify']);
    const twice = readPlainTextReply(deploy, '1: staging\nenv: production\n2: 1');
    expect(twice.outcome === 'invalid' && twice.problems.map((p) => p.questionId)).toEqual(['env']);
    const blank = readPlainTextReply(deploy, '1: staging\n2:   ');
    expect(blank.outcome === 'invalid' && blank.problems.map((p) => p.questionId)).toEqual(['notify']);
    const stray = readPlainTextReply(deploy, 'hello\n1: staging\n2: 1');
    expect(stray.outcome === 'invalid' && describePlainTextProblems(deploy, stray.problems)).toContain('"hello" names no question');
  });

  it('[PT4] exactly `skip` (any case) declines the whole prompt', () => {
    expect(readPlainTextReply(deploy, 'skip')).toEqual({ outcome: 'skipped' });
    expect(readPlainTextReply([env], '  SKIP ')).toEqual({ outcome: 'skipped' });
    expect(readPlainTextReply([env], 'skip it')).toEqual({ outcome: 'answered', answers: { env: ['skip it'] } });
  });

  it('[PT4] unless an option is labelled Skip: then it takes that option', () => {
    const item = { ...env, options: [{ label: 'Deploy' }, { label: 'Skip' }] };
    expect(readPlainTextReply([item], 'skip')).toEqual({ outcome: 'answered', answers: { env: ['Skip'] } });
  });

  it('[PT1] an answer longer than Q5 allows fits no rule', () => {
    const r = readPlainTextReply([env], 'x'.repeat(4001));
    expect(r.outcome).toBe('invalid');
  });
});

describe('readAsChoice', () => {
  it('[PT1][U8] a number or a label reads as the choice; free text, skip or an out-of-range number does not', () => {
    expect(readAsChoice([env], '2')).toEqual({ env: ['Production'] });
    expect(readAsChoice([env], ' staging ')).toEqual({ env: ['Staging (Recommended)'] });
    expect(readAsChoice([env], 'please hold off')).toBeNull();
    expect(readAsChoice([env], '7')).toBeNull();
    expect(readAsChoice([env], 'skip')).toBeNull();
  });

  it('[PT2][PT3] options only, for every question', () => {
    expect(readAsChoice([notify], '1, 3')).toEqual({ notify: ['Email', 'Pager'] });
    expect(readAsChoice([notify], '1, and call me')).toBeNull();
    expect(readAsChoice(deploy, '1: 2\n2: Slack')).toEqual({ env: ['Production'], notify: ['Slack'] });
    expect(readAsChoice(deploy, '2')).toBeNull();
  });
});
