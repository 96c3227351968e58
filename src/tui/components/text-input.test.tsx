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
  it('[V1] a burst or paste carrying control characters sends the text without them', async () => {
    const sent: string[] = [];
    ink = render(<Field sent={sent} />);
    await untilFrame(ink, (f) => f.includes('type here'));
    // The field listens from its first effect on: give it that turn.
    await new Promise((r) => setTimeout(r, 50));
    ink.stdin.write('deploy\u0015 now \u0007please\u0018');
    await untilFrame(ink, (f) => f.includes('please'));
    ink.stdin.write('\r');
    await untilFrame(ink, () => sent.length > 0);
    expect(sent).toEqual(['deploy now please']);
  });
});
