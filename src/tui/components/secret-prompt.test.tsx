import { render } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import type { SecretRequestRecord } from '../../protocol/index.ts';
import { untilFrame } from '../../testing/ink-frames.ts';
import { SecretPrompt } from './secret-prompt.tsx';

let ink: ReturnType<typeof render> | undefined;
afterEach(() => ink?.unmount());

const request = { id: 'sec-1', name: 'DEPLOY_KEY', description: 'To push the release', askedBy: 'agent', createdAtMs: 1, expiresAtMs: 2, status: 'pending' } as SecretRequestRecord;
const dots = (f: string) => [...f].filter((c) => c === '•').length;
const PEM = ['-----BEGIN OPENSSH PRIVATE KEY-----', 'b3BlbnNzaC1rZXktdjEAAAAABG5vbmU', 'AAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtz', '-----END OPENSSH PRIVATE KEY-----'];

describe('the masked field of a secret request', () => {
  it('[W4][K1] a pasted key with line breaks (sent by the terminal as \\r) is stored whole; only an Enter on its own stores it', async () => {
    const provided: string[] = [];
    ink = render(<SecretPrompt request={request} onProvide={(v) => provided.push(v)} onSkip={() => {}} onClose={() => {}} />);
    await untilFrame(ink, (f) => f.includes('never shown'));
    // The field listens from its first effect on: give it that turn.
    await new Promise((r) => setTimeout(r, 50));
    const pasted = PEM.join('\r') + '\r';
    ink.stdin.write(pasted);
    // Every character of the paste shows as a dot, its line breaks too: the paste is all in the field, nothing stored yet.
    await untilFrame(ink, (f) => dots(f) === pasted.length || provided.length > 0);
    expect(provided).toEqual([]);
    ink.stdin.write('\r');
    await untilFrame(ink, () => provided.length > 0);
    expect(provided).toEqual([PEM.join('\n') + '\n']);
    expect(ink.lastFrame()).not.toContain('BEGIN OPENSSH');
  });

  it('[W4] an emoji is one dot, and one Backspace erases it whole (alone or in a burst): no half of it is stored', async () => {
    const provided: string[] = [];
    ink = render(<SecretPrompt request={request} onProvide={(v) => provided.push(v)} onSkip={() => {}} onClose={() => {}} />);
    await untilFrame(ink, (f) => f.includes('never shown'));
    // The field listens from its first effect on: give it that turn.
    await new Promise((r) => setTimeout(r, 50));
    ink.stdin.write('pw🔑👍🏽');
    expect(dots(await untilFrame(ink, (f) => dots(f) >= 4))).toBe(4);
    ink.stdin.write('\u007f');
    ink.stdin.write('x🚀\u007f\u007fy');
    ink.stdin.write('\r');
    await untilFrame(ink, () => provided.length > 0);
    expect(provided).toEqual(['pw🔑y']);
  });

  it('[K1][W4] ↓ then Enter takes Skip: the request is declined and the typed value goes nowhere', async () => {
    const provided: string[] = [];
    let skipped = 0;
    ink = render(<SecretPrompt request={request} onProvide={(v) => provided.push(v)} onSkip={() => skipped++} onClose={() => {}} />);
    const frame = await untilFrame(ink, (f) => f.includes('never shown'));
    expect(frame).toMatch(/^\s*│\s+Skip\s*│$/m);
    expect(frame).toContain('↓ Skip');
    await new Promise((r) => setTimeout(r, 50));
    ink.stdin.write('half-typed');
    await untilFrame(ink, (f) => dots(f) === 10);
    ink.stdin.write('\u001b[B');
    await untilFrame(ink, (f) => f.includes('› Skip'));
    expect(ink.lastFrame()).toContain('Enter skip it: the agent gets no value');
    ink.stdin.write('\r');
    await untilFrame(ink, () => skipped > 0);
    expect(skipped).toBe(1);
    expect(provided).toEqual([]);
  });
});
