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
