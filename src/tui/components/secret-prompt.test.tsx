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

/** The field drawn and listening: what it stores lands in `provided`, each Skip counts in `skipped`. */
async function openField() {
  const seen = { provided: [] as string[], skipped: 0, closed: 0, frame: '' };
  const shown = render(<SecretPrompt request={request} onProvide={(v) => seen.provided.push(v)} onSkip={() => seen.skipped++} onClose={() => seen.closed++} />);
  ink = shown;
  seen.frame = await untilFrame(shown, (f) => f.includes('never shown'));
  // The field listens from its first effect on: give it that turn.
  await new Promise((r) => setTimeout(r, 50));
  return { seen, ink: shown };
}

describe('the masked field of a secret request', () => {
  it('[W4][K1] a pasted key with line breaks (sent by the terminal as \\r) is stored whole; only an Enter on its own stores it', async () => {
    const { seen, ink } = await openField();
    const pasted = PEM.join('\r') + '\r';
    ink.stdin.write(pasted);
    // Every character of the paste shows as a dot, its line breaks too: the paste is all in the field, nothing stored yet.
    await untilFrame(ink, (f) => dots(f) === pasted.length || seen.provided.length > 0);
    expect(seen.provided).toEqual([]);
    ink.stdin.write('\r');
    await untilFrame(ink, () => seen.provided.length > 0);
    expect(seen.provided).toEqual([PEM.join('\n') + '\n']);
    expect(ink.lastFrame()).not.toContain('BEGIN OPENSSH');
  });

  it('[W4] an emoji is one dot, and one Backspace erases it whole (alone or in a burst): no half of it is stored', async () => {
    const { seen, ink } = await openField();
    ink.stdin.write('pw🔑👍🏽');
    expect(dots(await untilFrame(ink, (f) => dots(f) >= 4))).toBe(4);
    ink.stdin.write('\u007f');
    ink.stdin.write('x🚀\u007f\u007fy');
    ink.stdin.write('\r');
    await untilFrame(ink, () => seen.provided.length > 0);
    expect(seen.provided).toEqual(['pw🔑y']);
  });

  it('[K1][W4] ↓ then Enter takes Skip: the request is declined and the typed value goes nowhere', async () => {
    const { seen, ink } = await openField();
    expect(seen.frame).toMatch(/^\s*│\s+Skip\s*│$/m);
    expect(seen.frame).toContain('↓ Skip');
    ink.stdin.write('half-typed');
    await untilFrame(ink, (f) => dots(f) === 10);
    ink.stdin.write('\u001b[B');
    await untilFrame(ink, (f) => f.includes('› Skip'));
    expect(ink.lastFrame()).toContain('Enter skip it: the agent gets no value');
    ink.stdin.write('\r');
    await untilFrame(ink, () => seen.skipped > 0);
    expect(seen.skipped).toBe(1);
    expect(seen.provided).toEqual([]);
  });

  it('[W4] Delete (ESC [3~) erases the character under the cursor, an emoji whole; Backspace the one before', async () => {
    const { seen, ink } = await openField();
    ink.stdin.write('ab👍🏽cd');
    await untilFrame(ink, (f) => dots(f) === 5);
    // Onto the emoji: Delete takes it (one dot fewer), then Backspace the "b" before it.
    ink.stdin.write('\u001b[D\u001b[D\u001b[D');
    ink.stdin.write('\u001b[3~');
    await untilFrame(ink, (f) => dots(f) === 4);
    ink.stdin.write('\u007f');
    await untilFrame(ink, (f) => dots(f) === 3);
    ink.stdin.write('\r');
    await untilFrame(ink, () => seen.provided.length > 0);
    expect(seen.provided).toEqual(['acd']);
  });

  it('[K1][W4] an Enter inside a burst on Skip takes it, as Enter pressed alone does; nothing of the burst is typed into the field', async () => {
    const { seen, ink } = await openField();
    ink.stdin.write('half');
    await untilFrame(ink, (f) => dots(f) === 4);
    // ↓ and Enter twice (a key bounce, a script) in one read: Skip is taken once; the field keeps its four dots.
    ink.stdin.write('\u001b[B\r\r');
    await untilFrame(ink, () => seen.skipped > 0);
    expect(seen.skipped).toBe(1);
    expect(dots(await untilFrame(ink, (f) => f.includes('› Skip')))).toBe(4);
    expect(seen.provided).toEqual([]);
  });

  it('[K1][W4] a paste with line breaks while Skip is highlighted is not an Enter: the request is not declined', async () => {
    const { seen, ink } = await openField();
    ink.stdin.write('abc');
    await untilFrame(ink, (f) => dots(f) === 3);
    ink.stdin.write('\u001b[B');
    await untilFrame(ink, (f) => f.includes('› Skip'));
    ink.stdin.write(PEM.join('\r') + '\r');
    ink.stdin.write('line1\r\nline2');
    // An Enter pressed alone afterwards still takes Skip: the paste changed nothing before it.
    ink.stdin.write('\r');
    await untilFrame(ink, () => seen.skipped > 0);
    expect(seen.skipped).toBe(1);
    expect(seen.provided).toEqual([]);
  });

  it('[K1][W4] ↑ from Skip and the next keys in the same read reach the field: typed letters are kept, Enter stores the value', async () => {
    const first = await openField();
    first.ink.stdin.write('abc');
    await untilFrame(first.ink, (f) => dots(f) === 3);
    first.ink.stdin.write('\u001b[B');
    await untilFrame(first.ink, (f) => f.includes('› Skip'));
    first.ink.stdin.write('\u001b[Axyz');
    await untilFrame(first.ink, (f) => dots(f) === 6);
    first.ink.stdin.write('\r');
    await untilFrame(first.ink, () => first.seen.provided.length > 0);
    expect(first.seen.provided).toEqual(['abcxyz']);
    first.ink.unmount();

    const second = await openField();
    second.ink.stdin.write('abc');
    await untilFrame(second.ink, (f) => dots(f) === 3);
    second.ink.stdin.write('\u001b[B');
    await untilFrame(second.ink, (f) => f.includes('› Skip'));
    second.ink.stdin.write('\u001b[A\r');
    await untilFrame(second.ink, () => second.seen.provided.length > 0);
    expect(second.seen.provided).toEqual(['abc']);
    expect(second.seen.skipped).toBe(0);
  });

  it('[W4] Esc goes back to the composer once, from the field and from Skip', async () => {
    const onField = await openField();
    onField.ink.stdin.write('\u001b');
    await untilFrame(onField.ink, () => onField.seen.closed > 0);
    onField.ink.unmount();
    const onSkip = await openField();
    onSkip.ink.stdin.write('\u001b[B');
    await untilFrame(onSkip.ink, (f) => f.includes('› Skip'));
    onSkip.ink.stdin.write('\u001b');
    await untilFrame(onSkip.ink, () => onSkip.seen.closed > 0);
    // A second close would show after the key's turn: give it one.
    await new Promise((r) => setTimeout(r, 50));
    expect([onField.seen.closed, onSkip.seen.closed, onSkip.seen.skipped]).toEqual([1, 1, 0]);
  });

  it('[K1][W4] keys on Skip change neither the value nor its cursor: letters, ←, Home, Backspace, Ctrl+U or a paste there are not kept', async () => {
    const cases: { name: string; onSkip: string[]; after: string[]; stored: string }[] = [
      { name: 'letters, then ↑ and Enter in one read', onSkip: ['xy'], after: ['\u001b[A\r'], stored: 'abc' },
      { name: 'Backspace, then ↑ and Enter in one read', onSkip: ['\u007f'], after: ['\u001b[A\r'], stored: 'abc' },
      { name: 'a paste, then ↑ and Enter in one read', onSkip: ['-----BEGIN\rKEY'], after: ['\u001b[A\r'], stored: 'abc' },
      { name: '← then ↑, d and Enter (each its own read)', onSkip: ['\u001b[D'], after: ['\u001b[A', 'd', '\r'], stored: 'abcd' },
      { name: 'Home then ↑, d and Enter', onSkip: ['\u001b[H'], after: ['\u001b[A', 'd', '\r'], stored: 'abcd' },
      { name: 'Ctrl+U then ↑, d and Enter', onSkip: ['\u0015'], after: ['\u001b[A', 'd', '\r'], stored: 'abcd' },
    ];
    for (const c of cases) {
      const { seen, ink } = await openField();
      ink.stdin.write('abc');
      await untilFrame(ink, (f) => dots(f) === 3);
      ink.stdin.write('\u001b[B');
      await untilFrame(ink, (f) => f.includes('› Skip'));
      for (const k of c.onSkip) ink.stdin.write(k);
      for (const k of c.after) ink.stdin.write(k);
      await untilFrame(ink, () => seen.provided.length > 0);
      expect([c.name, seen.provided]).toEqual([c.name, [c.stored]]);
      ink.unmount();
    }
  });

  it('[K1][W4] one answer per prompt: Skip then ↑ and Enter in one read, or two Enters read apart, send one thing', async () => {
    const skipped = await openField();
    skipped.ink.stdin.write('abc');
    await untilFrame(skipped.ink, (f) => dots(f) === 3);
    skipped.ink.stdin.write('\u001b[B');
    await untilFrame(skipped.ink, (f) => f.includes('› Skip'));
    skipped.ink.stdin.write('\r\u001b[A\r');
    await untilFrame(skipped.ink, () => skipped.seen.skipped > 0);
    skipped.ink.unmount();
    const provided = await openField();
    provided.ink.stdin.write('abc');
    await untilFrame(provided.ink, (f) => dots(f) === 3);
    provided.ink.stdin.write('\r');
    provided.ink.stdin.write('\r');
    await untilFrame(provided.ink, () => provided.seen.provided.length > 0);
    // A second answer would come on a later turn: give it one.
    await new Promise((r) => setTimeout(r, 50));
    expect([skipped.seen.skipped, skipped.seen.provided, provided.seen.provided, provided.seen.skipped]).toEqual([1, [], ['abc'], 0]);
  });
});
