import { render } from 'ink-testing-library';
import { Box } from 'ink';
import { useRef, useState } from 'react';
import { afterEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import type { QuestionRecord } from '../../protocol/index.ts';
import type { InputSpec } from '../../protocol/rules.ts';
import { emptyDraft, type PromptDraft, type PromptEffect } from '../prompt/prompt-model.ts';
import { untilFrame } from '../../testing/ink-frames.ts';
import { QuestionPrompt } from './question-prompt.tsx';

const inputRecord = (input: InputSpec): QuestionRecord => ({
  id: 'q1',
  askedBy: 'agent',
  mode: 'blocking',
  questions: [{ id: 'n', header: 'Replicas', question: input.type === 'boolean' ? 'Restart after deploy?' : 'How many replicas?', options: [], kind: 'input', input }],
  createdAtMs: 1,
  expiresAtMs: null,
  status: 'pending',
});

/** The prompt with its draft kept as the app keeps it; every effect lands in `effects`. */
function Harness({ record, effects, mayAnswer }: { record: QuestionRecord; effects: PromptEffect[]; mayAnswer?: boolean }) {
  const [draft, setDraft] = useState<PromptDraft>(() => emptyDraft(record));
  const ref = useRef(draft);
  const onDraft = (next: PromptDraft) => {
    ref.current = next;
    setDraft(next);
  };
  return <QuestionPrompt record={record} index={0} count={1} draft={draft} getDraft={() => ref.current} onDraft={onDraft} onEffect={(e) => effects.push(e)} mayAnswer={mayAnswer} />;
}

let ink: ReturnType<typeof render> | undefined;
afterEach(() => ink?.unmount());

const until = (check: (frame: string) => boolean) => untilFrame(ink!, check);

async function write(text: string) {
  for (const ch of text) {
    ink!.stdin.write(ch);
    await new Promise((r) => setTimeout(r, 5));
  }
}

describe('QuestionPrompt for a typed input', () => {
  it('[Q12][Q5] a number under its minimum is refused with the rule and nothing is sent; a valid one is sent', async () => {
    const effects: PromptEffect[] = [];
    ink = render(<Harness record={inputRecord({ type: 'integer', minimum: 1, maximum: 10 })} effects={effects} />);
    await until((f) => f.includes('How many replicas?'));
    expect(ink.lastFrame()).toContain('Type an answer…');
    expect(ink.lastFrame()).not.toContain('Other…');
    await write('0');
    await until((f) => f.includes('✎'));
    await write('\r');
    await until((f) => f.includes('Replicas must be at least 1 (minimum).'));
    expect(effects).toEqual([]);
    await write('\x7f3');
    await until((f) => f.includes('3') && !f.includes('0'));
    await write('\r');
    await until(() => effects.length > 0);
    expect(effects).toEqual([{ kind: 'submit', answers: { n: ['3'] } }]);
  });

  it('[Q12] a boolean offers Yes / No, and 1 answers true', async () => {
    const effects: PromptEffect[] = [];
    ink = render(<Harness record={inputRecord({ type: 'boolean' })} effects={effects} />);
    const frame = await until((f) => f.includes('Restart after deploy?'));
    expect(frame).toContain('1. Yes');
    expect(frame).toContain('2. No');
    await write('1');
    await until(() => effects.length > 0);
    expect(effects).toEqual([{ kind: 'submit', answers: { n: ['true'] } }]);
  });

  it('[X5] a default is prefilled in the typed entry: Enter opens it holding the value, Enter again sends it unedited', async () => {
    const effects: PromptEffect[] = [];
    ink = render(<Harness record={inputRecord({ type: 'integer', minimum: 1, maximum: 10, default: 3 })} effects={effects} />);
    const frame = await until((f) => f.includes('How many replicas?'));
    expect(frame).toMatch(/Type an answer… 3/);
    await write('\r');
    await until((f) => f.includes('✎'));
    expect(ink.lastFrame()).toMatch(/✎ 3/);
    await write('\r');
    await until(() => effects.length > 0);
    expect(effects).toEqual([{ kind: 'submit', answers: { n: ['3'] } }]);
  });

  it('[X5] a prefilled default stays editable: Backspace and a digit send the new value', async () => {
    const effects: PromptEffect[] = [];
    ink = render(<Harness record={inputRecord({ type: 'integer', minimum: 1, maximum: 10, default: 3 })} effects={effects} />);
    await until((f) => f.includes('How many replicas?'));
    await write('\r');
    await until((f) => f.includes('✎'));
    expect(ink.lastFrame()).toMatch(/✎ 3/);
    // The field listens once it is mounted: Backspace again until the value is gone (a second one on empty does nothing).
    for (let i = 0; i < 400 && /✎ 3/.test(ink.lastFrame() ?? ''); i++) await write('\x7f');
    await until((f) => !/✎ 3/.test(f));
    await write('7\r');
    await until(() => effects.length > 0);
    expect(effects).toEqual([{ kind: 'submit', answers: { n: ['7'] } }]);
  });

  it('[X5] a boolean\'s default is the highlighted row, so Enter sends it', async () => {
    const effects: PromptEffect[] = [];
    ink = render(<Harness record={inputRecord({ type: 'boolean', default: false })} effects={effects} />);
    await until((f) => f.includes('Restart after deploy?'));
    await write('\r');
    await until(() => effects.length > 0);
    expect(effects).toEqual([{ kind: 'submit', answers: { n: ['false'] } }]);
  });
});

/** A one-question choice: Staging / Production, then Other… and Skip; routed when given a route. */
const routed = (route: QuestionRecord['route']): QuestionRecord => ({
  id: 'q2',
  askedBy: 'agent',
  mode: 'blocking',
  questions: [{ id: 'env', header: 'Env', question: 'Which environment?', options: [{ label: 'Staging' }, { label: 'Production' }] }],
  createdAtMs: 1,
  expiresAtMs: null,
  status: 'pending',
  route,
});

describe('QuestionPrompt for a routed question (E4, E9)', () => {

  it('[E9][E4] the header says who it waits for and when it moves on; `a` acknowledges; once acked it says who is on it', async () => {
    // The clock stands still here: the countdown reads the same however long the machine takes to render it.
    vi.spyOn(Date, 'now').mockReturnValue(Date.now());
    onTestFinished(() => vi.mocked(Date.now).mockRestore());
    const effects: PromptEffect[] = [];
    ink = render(<Harness record={routed({ escalation: 'team', step: 0, notified: ['ana'], eligible: ['ana'], nextAtMs: Date.now() + 252_500 })} effects={effects} />);
    const frame = await until((f) => f.includes('For ana'));
    expect(frame).toMatch(/next step in 4:1[23]/);
    expect(frame).toContain("a: I'm on it");
    await write('a');
    await until(() => effects.length > 0);
    expect(effects).toEqual([{ kind: 'ack' }]);
    ink.unmount();
    const acked = { identity: 'ana', atMs: Date.now(), untilMs: Date.now() + 1_800_000 };
    ink = render(<Harness record={routed({ escalation: 'team', step: 0, notified: ['ana'], eligible: ['ana'], nextAtMs: Date.now() + 60_000, ackedBy: acked })} effects={[]} />);
    const after = await until((f) => f.includes('ana is on it'));
    expect(after).not.toContain('next step in');
  });

  it('[E3] someone it does not wait for reads who it waits for and that they can read it but not answer; `a` does nothing', async () => {
    const effects: PromptEffect[] = [];
    ink = render(<Harness record={routed({ escalation: 'team', step: 0, notified: ['ana'], eligible: ['ana'] })} effects={effects} mayAnswer={false} />);
    const frame = await until((f) => f.includes('For ana'));
    expect(frame).toContain('you can read it but not answer');
    expect(frame).not.toContain("a: I'm on it");
    await write('a');
    await new Promise((r) => setTimeout(r, 50));
    expect(effects).toEqual([]);
  });

  it('[E3] for them Enter, numbers and the Skip row answer nothing; the hint says it is read only', async () => {
    const effects: PromptEffect[] = [];
    ink = render(<Harness record={routed({ escalation: 'team', step: 0, notified: ['ana'], eligible: ['ana'] })} effects={effects} mayAnswer={false} />);
    const frame = await until((f) => f.includes('For ana'));
    expect(frame).toContain('Read only: you may not answer');
    expect(frame).not.toMatch(/1-9 pick|Enter take|Skip|Other…/);
    await write('2\r');
    for (const key of ['\x1b[B', '\x1b[B', '\x1b[B', '\r', ' ']) {
      ink.stdin.write(key);
      await new Promise((r) => setTimeout(r, 5));
    }
    await new Promise((r) => setTimeout(r, 50));
    expect(effects).toEqual([]);
    expect(ink.lastFrame()).not.toContain('✎');
  });

  it('[E4] `a` on a question without a route does nothing', async () => {
    const effects: PromptEffect[] = [];
    ink = render(<Harness record={routed(undefined)} effects={effects} />);
    await until((f) => f.includes('Which environment?'));
    expect(ink.lastFrame()).not.toContain('For ');
    await write('a1');
    await until(() => effects.length > 0 || (ink!.lastFrame() ?? '').includes('●'));
    expect(effects.some((e) => e.kind === 'ack')).toBe(false);
  });
});

describe('QuestionPrompt on a narrow terminal', () => {
  const deploy: QuestionRecord = {
    id: 'q3',
    askedBy: 'agent',
    mode: 'blocking',
    questions: [
      { id: 'env', header: 'Environment', question: 'Where should I deploy?', options: [{ label: 'Staging (Recommended)', description: 'Safe to try out; nobody depends on it.' }, { label: 'Production' }] },
      { id: 'notify', header: 'Notify', question: 'Who?', multiSelect: true, options: [{ label: 'Email' }, { label: 'Slack' }] },
    ],
    createdAtMs: 1,
    expiresAtMs: Date.now() + 14 * 60_000 + 32_400,
    status: 'pending',
  };

  it('[V2][V3] at 40 columns `Question 1 of 2` and the time left stay whole; a wrapped description keeps its indent', async () => {
    ink = render(
      <Box width={40}>
        <Harness record={deploy} effects={[]} />
      </Box>,
    );
    const frame = await until((f) => f.includes('Where should I deploy?'));
    const lines = frame.split('\n');
    expect(frame).toContain('Question 1 of 2');
    expect(frame).toMatch(/1[34]:\d\d left/);
    const first = lines.findIndex((l) => l.includes('Safe to try out'));
    expect(lines[first]).toMatch(/^│ {6}Safe to try out/);
    // Ink keeps the space it wrapped at: the next line starts one further in, still under the label.
    expect(lines[first + 1]).toMatch(/^│ {6,7}\S/);
  });
});

describe('QuestionPrompt when a burst opens Other… and goes on typing', () => {
  it('[V2] its erase keys erase as the field does: Backspace a whole emoji, Alt+Backspace (ESC and DEL) the word before', async () => {
    const effects: PromptEffect[] = [];
    ink = render(<Harness record={routed(undefined)} effects={effects} />);
    await until((f) => f.includes('Which environment?'));
    // The prompt listens from its first effect on: give it that turn.
    await new Promise((r) => setTimeout(r, 50));
    // One chunk, as a pty or tmux sends it: down to Other…, open it, type, erase, type on, send.
    ink.stdin.write('\x1b[B\x1b[B\rdeploy 👍🏽\x7fto prod please\x1b\x7fnow\r');
    await until(() => effects.length > 0);
    expect(effects).toEqual([{ kind: 'submit', answers: { env: ['deploy to prod now'] } }]);
  });

  it('[V2] the controls it carries (a BEL, ^A, an escape) are not typed into the answer, as the field does not type them', async () => {
    const effects: PromptEffect[] = [];
    ink = render(<Harness record={routed(undefined)} effects={effects} />);
    await until((f) => f.includes('Which environment?'));
    await new Promise((r) => setTimeout(r, 50));
    ink.stdin.write('\x1b[B\x1b[B\rab\x07c\x01d\x02\r');
    await until(() => effects.length > 0);
    expect(effects).toEqual([{ kind: 'submit', answers: { env: ['abcd'] } }]);
  });
});

describe('QuestionPrompt: Delete in the Other… field', () => {
  it('[V2] Delete (ESC [3~) erases the character under the cursor, an emoji whole; at the end of a burst it erases nothing', async () => {
    const effects: PromptEffect[] = [];
    ink = render(<Harness record={routed(undefined)} effects={effects} />);
    await until((f) => f.includes('Which environment?'));
    await new Promise((r) => setTimeout(r, 50));
    // A burst opens Other… and types; a Delete at its end (the cursor after the text) leaves the text as it is.
    ink.stdin.write('\x1b[B\x1b[B\rship 👍🏽 now\x1b[3~');
    await until((f) => f.includes('ship 👍🏽 now'));
    // The field listens from its first effect on: give it that turn.
    await new Promise((r) => setTimeout(r, 50));
    // In the field: ← onto "n", Delete takes it; ← ← onto the emoji, Delete takes it whole.
    ink.stdin.write('\x1b[D\x1b[D\x1b[D');
    ink.stdin.write('\x1b[3~');
    await until((f) => f.includes('ship 👍🏽 ow'));
    ink.stdin.write('\x1b[D\x1b[D');
    ink.stdin.write('\x1b[3~');
    await until((f) => f.includes('ship  ow'));
    ink.stdin.write('\r');
    await until(() => effects.length > 0);
    expect(effects).toEqual([{ kind: 'submit', answers: { env: ['ship  ow'] } }]);
  });
});
