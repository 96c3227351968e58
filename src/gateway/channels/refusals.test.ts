import { describe, expect, it } from 'vitest';
import { OFFER_PROJECT } from '../../answers/kinds/approval-offers.ts';
import { AskdockError, type QuestionRecord } from '../../protocol/index.ts';
import { messageRefusal, pressRefusal, replyRefusal } from './refusals.ts';

const approval = {
  questions: [{ id: 'approval', kind: 'approval', header: 'Bash', question: 'Allow Bash(make deploy)?', options: [{ label: 'Allow' }, { label: 'Deny' }, { label: OFFER_PROJECT }] }],
} as unknown as QuestionRecord;
const guest = new Set(['operator.sessions.write']);
const questionsNoWrite = new Set(['operator.questions', 'operator.read']);
const grantRefused = new AskdockError('FORBIDDEN', 'a grant for this project needs scope operator.admin or operator.questions', { details: { needed: ['operator.admin', 'operator.questions'] } });
const writeRefused = new AskdockError('FORBIDDEN', 'chat.send needs scope operator.admin or operator.write', { details: { needed: ['operator.admin', 'operator.write'] } });

describe('what a refused channel answer is told (H4, G5, A5)', () => {
  it('[H4][G5] a typed offer the replier may not make names the scopes the grant needs, from the replier\'s own scopes', () => {
    expect(replyRefusal(grantRefused, approval, OFFER_PROJECT, guest)).toBe('Not sent: you may not choose that: it needs operator.admin or operator.questions. Answer Allow for this request only.');
    // One who may make the grant but was refused for something else (here a write scope) is not told about the grant.
    expect(replyRefusal(writeRefused, approval, OFFER_PROJECT, questionsNoWrite)).toBe('Not sent: you may not answer this question.');
    expect(replyRefusal(new AskdockError('UNAVAILABLE', 'down'), approval, OFFER_PROJECT, guest)).toBe('Not sent: could not answer just now; try again.');
  });

  it('[H4][G5] a pressed offer: the same, and a failing check of who may answer falls back to the old words', async () => {
    const log = () => {};
    const press = (scopes: Set<string>, mayAnswer: () => Promise<boolean>) => ({ q: approval, choice: '2', scopes, mayAnswer });
    expect(await pressRefusal(grantRefused, log, press(guest, async () => true))).toBe('You may not choose that: it needs operator.admin or operator.questions. Answer Allow for this request only.');
    expect(await pressRefusal(writeRefused, log, press(questionsNoWrite, async () => true))).toBe('You may not answer this question.');
    expect(await pressRefusal(grantRefused, log, press(guest, () => Promise.reject(new Error('store gone'))))).toBe('You may not answer this question.');
  });

  it('[H2][A5][C2] a refused ordinary message is told why from the refusal\'s code and details, naming no identity or session', () => {
    const createRefused = new AskdockError('FORBIDDEN', 'sessions.create needs scope operator.admin; identity "reader" has operator.read', { details: { method: 'sessions.create', needed: ['operator.admin'] } });
    expect(messageRefusal(createRefused, 'hi')).toBe('Not sent: you may not start a session here.');
    expect(messageRefusal(writeRefused, 'hi')).toBe('Not sent: you may not write in this session.');
    expect(messageRefusal(new AskdockError('SESSION_NOT_FOUND', 'no session "s-1"', { details: { sessionKey: 's-1' } }), 'hi')).toBe('Not sent: you may not write in this session.');
    const empty = new AskdockError('INVALID_REQUEST', 'invalid chat.send: message: message must not be empty', { details: [{ path: 'message', problem: 'message must not be empty' }] });
    expect(messageRefusal(empty, '')).toBe('Not sent: the message is empty.');
    // Another field's problem is not the person's text: nothing they could change, so they try again.
    const badKey = new AskdockError('INVALID_REQUEST', 'invalid chat.send: idempotencyKey: too short', { details: [{ path: 'idempotencyKey', problem: 'too short' }] });
    expect(messageRefusal(badKey, 'hi')).toBe('Not sent: could not send just now; try again.');
    expect(messageRefusal(new Error('store gone'), 'hi')).toBe('Not sent: could not send just now; try again.');
  });
});
