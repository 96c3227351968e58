import { describe, expect, it } from 'vitest';
import type { QuestionRecord } from '../../protocol/index.ts';
import { transcriptRows } from './transcript-rows.ts';

const record = (id: string, resolvedBy: QuestionRecord['resolvedBy']): QuestionRecord => ({
  id,
  sessionKey: 's1',
  askedBy: 'agent',
  mode: 'blocking',
  questions: [{ id: 'color', header: 'Color', question: 'Which?', options: [{ label: 'Blue (Recommended)' }, { label: 'Red' }] }],
  createdAtMs: 1,
  expiresAtMs: null,
  status: 'answered',
  answers: { color: ['Blue (Recommended)'] },
  ...(resolvedBy ? { resolvedBy } : {}),
});

const base = { sessionKey: 's1', messages: {}, endedAtMs: {}, mine: {}, seenPending: {}, identity: 'operator' };

describe('the TUI transcript notices (V5)', () => {
  it('[V5] a question that ended before this process saw it reads `Answered elsewhere` unless a terminal of this identity answered it', () => {
    const questions = {
      ui: record('ui', { identity: 'operator', surface: 'ui', atMs: 2 }),
      other: record('other', { identity: 'someone', surface: 'tui', atMs: 3 }),
      tui: record('tui', { identity: 'operator', surface: 'tui', atMs: 4 }),
    };
    const rows = transcriptRows({ ...base, questions });
    expect(rows.map((r) => [r.key, r.text])).toEqual([
      ['q:ui', 'Answered elsewhere'],
      ['q:other', 'Answered elsewhere'],
      ['q:tui', '✓ Color: Blue'],
    ]);
  });

  it('[E7] a routed question answered elsewhere says who answered it and where', () => {
    const route = { escalation: 'prod', step: 0, notified: ['dana'], eligible: ['dana'] };
    const questions = { r: { ...record('r', { identity: 'dana', name: 'Dana', surface: 'control-ui', atMs: 2 }), route } };
    const rows = transcriptRows({ ...base, questions, seenPending: { r: true } });
    expect(rows.map((r) => r.text)).toEqual(['Answered by Dana · Control UI']);
  });

  it('[E7][E5] a routed approval answered elsewhere reads "Answered by <name> · <surface>"; its Allow or Deny and a quorum\'s approvers go beside the wording', () => {
    const route = { escalation: 'prod', step: 0, notified: ['ana', 'dana'], eligible: ['ana', 'dana'] };
    const questions: QuestionRecord['questions'] = [{ id: 'approval', header: 'Bash', question: 'Run git push?', kind: 'approval', options: [{ label: 'Allow' }, { label: 'Deny' }] }];
    const quorum = { needed: 2, approvals: [{ identity: 'ana', name: 'Ana', surface: 'control-ui', atMs: 1 }] };
    const denied = { ...record('d', { identity: 'bo', name: 'Bo', surface: 'channel:telegram', atMs: 2 }), questions, answers: { approval: ['Deny'] }, route };
    const allowed = { ...record('a', { identity: 'dana', name: 'Dana', surface: 'control-ui', atMs: 3 }), questions, answers: { approval: ['Allow'] }, route: { ...route, quorum }, createdAtMs: 2 };
    const rows = transcriptRows({ ...base, questions: { d: denied, a: allowed }, seenPending: { d: true, a: true } });
    expect(rows.map((r) => [r.text, r.detail])).toEqual([
      ['Answered by Bo · Telegram', 'Bash: Run git push? → Deny'],
      ['Answered by Dana · Control UI', 'Bash: Run git push? → Allow · Approvals: Ana, Dana'],
    ]);
  });

  it('[V5] seen pending here: answered by this process is ✓, by anyone else `Answered elsewhere`', () => {
    const questions = { a: record('a', { identity: 'operator', surface: 'tui', atMs: 2 }), b: record('b', { identity: 'operator', surface: 'tui', atMs: 3 }) };
    const rows = transcriptRows({ ...base, questions, seenPending: { a: true, b: true }, mine: { a: true } });
    expect(rows.map((r) => r.text)).toEqual(['✓ Color: Blue', 'Answered elsewhere']);
  });

  it('[G6] an approval the policy or a grant decided gets no "Answered elsewhere" notice: its system message says it', () => {
    const questions = { p: record('p', { identity: 'policy', surface: 'policy', atMs: 2 }) };
    const messages = { s1: [{ id: 'm1', sessionKey: 's1', role: 'system' as const, text: '✓ Allowed Bash(npm run test) · rule npm-tests', authorId: 'policy', createdAtMs: 2, seq: 1 }] };
    expect(transcriptRows({ ...base, questions, messages }).map((r) => [r.who, r.text])).toEqual([['decision', '✓ Allowed Bash(npm run test) · rule npm-tests']]);
  });
});
