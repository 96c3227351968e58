import { render } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import type { SecretRequestRecord } from '../../protocol/index.ts';
import { untilFrame } from '../../testing/ink-frames.ts';
import { SecretPrompt } from './secret-prompt.tsx';

let ink: ReturnType<typeof render> | undefined;
afterEach(() => ink?.unmount());

const request = { id: 'sec-1', name: 'DEPLOY_KEY', description: 'To push the release', askedBy: 'agent', createdAtMs: 1, expiresAtMs: 2, status: 'pending' } as SecretRequestRecord;
const PEM = ['-----BEGIN OPENSSH PRIVATE KEY-----', 'b3BlbnNzaC1rZXktdjEAAAAABG5vbmU', 'AAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtz', '-----END OPENSSH PRIVATE KEY-----'];

describe('the masked field of a secret request', () => {
  it('[W4][K1] a pasted key with line breaks (sent by the terminal as \\r) is stored whole; only an Enter on its own stores it', async () => {
    const provided: string[] = [];
    ink = render(<SecretPrompt request={request} onProvide={(v) => provided.push(v)} onClose={() => {}} />);
    await untilFrame(ink, (f) => f.includes('never shown'));
    // The field listens from its first effect on: give it that turn.
    await new Promise((r) => setTimeout(r, 50));
    const pasted = PEM.join('\r') + '\r';
    ink.stdin.write(pasted);
    // Every character of the paste shows as a dot, its line breaks too: the paste is all in the field, nothing stored yet.
    const dots = (f: string) => [...f].filter((c) => c === '•').length;
    await untilFrame(ink, (f) => dots(f) === pasted.length || provided.length > 0);
    expect(provided).toEqual([]);
    ink.stdin.write('\r');
    await untilFrame(ink, () => provided.length > 0);
    expect(provided).toEqual([PEM.join('\n') + '\n']);
    expect(ink.lastFrame()).not.toContain('BEGIN OPENSSH');
  });
});
