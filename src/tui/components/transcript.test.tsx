import chalk from 'chalk';
import { Box } from 'ink';
import { render } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../protocol/index.ts';
import { transcriptRows } from '../state/transcript-rows.ts';
import { Transcript } from './transcript.tsx';

const message = (id: string, role: ChatMessage['role'], text: string, seq: number): ChatMessage => ({ id, sessionKey: 's1', role, text, authorId: 'x', createdAtMs: seq, seq });
const base = { sessionKey: 's1', questions: {}, endedAtMs: {}, mine: {}, seenPending: {}, identity: 'operator' };

let ink: ReturnType<typeof render> | undefined;
const level = chalk.level;
afterEach(() => {
  ink?.unmount();
  chalk.level = level;
});
const DIM = '\u001b[2m';

describe('[G6] decided approvals in the TUI transcript', () => {
  it('[G6] a notice is its own line with no author column; other system messages keep theirs', () => {
    const messages = {
      s1: [
        message('m1', 'user', 'run the tests', 1),
        message('m2', 'system', '✓ Allowed Bash(npm run test) · rule npm-tests', 2),
        message('m3', 'system', '✕ Denied Bash(rm -rf /) · rule no-rm', 3),
        message('m4', 'system', 'The agent restarted', 4),
      ],
    };
    const rows = transcriptRows({ ...base, messages });
    expect(rows.map((r) => r.who)).toEqual(['you', 'decision', 'decision', 'system']);
    ink = render(<Transcript rows={rows} empty="" />);
    const lines = ink.lastFrame()!.split('\n').map((l) => l.trimEnd());
    expect(lines).toContain('  ✓ Allowed Bash(npm run test) · rule npm-tests');
    expect(lines).toContain('  ✕ Denied Bash(rm -rf /) · rule no-rm');
    expect(lines.some((l) => /^system\s+The agent restarted$/.test(l))).toBe(true);
  });

  it('[G6] a notice is drawn dim, a plain system message is not', () => {
    chalk.level = 1;
    const messages = { s1: [message('m1', 'system', '✓ Allowed Bash(npm run test) · rule npm-tests', 1), message('m2', 'system', 'The agent restarted', 2)] };
    ink = render(<Transcript rows={transcriptRows({ ...base, messages })} empty="" />);
    const lines = ink.lastFrame()!.split('\n');
    expect(lines.find((l) => l.includes('Allowed'))).toContain(`${DIM}  ✓ Allowed Bash(npm run test) · rule npm-tests`);
    expect(lines.find((l) => l.includes('restarted'))).not.toContain(DIM);
  });

  it('[G6] a notice carrying escape sequences shows them as visible text, never acted on', () => {
    const rows = transcriptRows({ ...base, messages: { s1: [message('m1', 'system', '✓ Allowed Bash(echo \u001b]0;pwned\u0007) · rule echo', 1)] } });
    ink = render(<Transcript rows={rows} empty="" />);
    expect(ink.lastFrame()).toContain('✓ Allowed Bash(echo \uFFFD]0;pwned\uFFFD) · rule echo');
    expect(ink.lastFrame()).not.toContain('\u0007');
  });
});

describe('[V5] the compact notice on a narrow terminal', () => {
  it('[V5] at 40 columns the notice and the question beside it wrap as one paragraph, the notice first', () => {
    const questions = {
      q1: {
        id: 'q1',
        sessionKey: 's1',
        askedBy: 'agent',
        mode: 'blocking' as const,
        questions: [
          { id: 'env', header: 'Environment', question: 'Where should I deploy?', options: [{ label: 'Staging' }, { label: 'Production' }] },
          { id: 'notify', header: 'Notify', question: 'Who should I notify when the deploy is done?', multiSelect: true, options: [{ label: 'Email' }, { label: 'Pager' }] },
        ],
        createdAtMs: 1,
        expiresAtMs: null,
        status: 'answered' as const,
        answers: { env: ['Production'], notify: ['Email', 'Pager'] },
      },
    };
    const rows = transcriptRows({ ...base, messages: {}, questions, mine: { q1: true } });
    ink = render(
      <Box width={40}>
        <Transcript rows={rows} empty="" />
      </Box>,
    );
    const lines = ink.lastFrame()!.split('\n').map((l) => l.trimEnd());
    expect(lines[0]).toBe('  ✓ Environment: Production · Notify:');
    expect(lines.join(' ')).toMatch(/Email, Pager\s+— Where should I deploy\?\s+·\s+Who should I notify when the\s+deploy is done\?/);
    expect(lines.length).toBeLessThanOrEqual(4);
  });
});
