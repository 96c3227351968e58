import { render } from 'ink-testing-library';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { untilFrame } from '../../testing/ink-frames.ts';
import { TextInput } from './text-input.tsx';

let ink: ReturnType<typeof render> | undefined;
afterEach(() => ink?.unmount());

function Field({ sent }: { sent: string[] }) {
  const [value, setValue] = useState('');
  return <TextInput value={value} onChange={setValue} onSubmit={(v) => sent.push(v)} placeholder="type here" />;
}

describe('the one-line field', () => {
  it('[V1] a burst or paste carrying control characters sends the text without them; its Backspace and Ctrl+U still erase', async () => {
    const sent: string[] = [];
    ink = render(<Field sent={sent} />);
    await untilFrame(ink, (f) => f.includes('type here'));
    // The field listens from its first effect on: give it that turn.
    await new Promise((r) => setTimeout(r, 50));
    // "deploy", Ctrl+U, "ship it", Backspace twice (DEL and ^H), then text with a BEL and a Ctrl+X in it: one chunk.
    ink.stdin.write('deploy\u0015ship it\u007f\bIT \u0007now\u0018');
    await untilFrame(ink, (f) => f.includes('now'));
    ink.stdin.write('\r');
    await untilFrame(ink, () => sent.length > 0);
    expect(sent).toEqual(['ship IT now']);
  });
});

// Each write reaches the field as one read: a key pressed alone, or a burst (a paste, a fast typist, tmux) of several.
const PRESSES = [
  {
    rule: '[V1] Backspace erases a whole emoji (with its skin tone) or accented letter, pressed alone or inside a burst',
    // An e with a combining accent is one character too: one ^H takes both.
    writes: ['ship 🚀', '\u007f', 'it 👍🏽\u007f!', ' cafe\u0301\b\u00e9'],
    sent: 'ship it ! café',
  },
  { rule: '[V1] ← steps over a whole emoji: text typed there goes before it, never inside it', writes: ['go 🚀', '\u001b[D', 'now '], sent: 'go now 🚀' },
  {
    rule: '[V1] Alt+Backspace (ESC and DEL, or ESC and ^H) erases the word before the cursor, pressed alone or inside a burst',
    writes: ['deploy to prod', '\u001b\u007f', 'the staging box\u001b\u007fhost, please\u001b\bnow'],
    sent: 'deploy to the staging host, now',
  },
];

describe('erasing and moving by what a person sees as one character', () => {
  for (const { rule, writes, sent: expected } of PRESSES)
    it(rule, async () => {
      const sent: string[] = [];
      ink = render(<Field sent={sent} />);
      await untilFrame(ink, (f) => f.includes('type here'));
      // The field listens from its first effect on: give it that turn.
      await new Promise((r) => setTimeout(r, 50));
      for (const chunk of writes) ink.stdin.write(chunk);
      ink.stdin.write('\r');
      await untilFrame(ink, () => sent.length > 0);
      expect(sent).toEqual([expected]);
    });
});

describe('Delete erases forward, Backspace back', () => {
  it('[V1] Delete (ESC [3~) erases the character under the cursor, a whole emoji with its skin tone; Backspace still erases the one before', async () => {
    const sent: string[] = [];
    ink = render(<Field sent={sent} />);
    await untilFrame(ink, (f) => f.includes('type here'));
    // The field listens from its first effect on: give it that turn.
    await new Promise((r) => setTimeout(r, 50));
    const left = '\u001b[D';
    // The cursor on "n" of "now": Delete takes the "n", the text after it stays.
    ink.stdin.write('ship 👍🏽 now');
    ink.stdin.write(left + left + left);
    ink.stdin.write('\u001b[3~');
    expect(await untilFrame(ink, (f) => f.includes('ship 👍🏽 ow'))).toContain('ship 👍🏽 ow');
    // Back onto the emoji (over the space): Delete takes it whole, then Backspace (DEL, alone and in a burst) the space before.
    ink.stdin.write(left + left);
    ink.stdin.write('\u001b[3~');
    await untilFrame(ink, (f) => f.includes('ship  ow'));
    ink.stdin.write('\u007f');
    ink.stdin.write('x\u007f\u007f');
    await untilFrame(ink, (f) => f.includes('shi ow'));
    // Delete at the end of the text erases nothing.
    ink.stdin.write('\u001b[F\u001b[3~!');
    ink.stdin.write('\r');
    await untilFrame(ink, () => sent.length > 0);
    expect(sent).toEqual(['shi ow!']);
  });
});
