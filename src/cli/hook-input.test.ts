import { closeSync, openSync, writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readStdin } from './hook-input.ts';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'askdock-hook-input-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const fdOf = (text: string) => {
  const file = join(dir, 'event.json');
  writeFileSync(file, text);
  return openSync(file, 'r');
};
const never = () => {
  throw new Error('the stream was made');
};

describe('readStdin (X1)', () => {
  it('[X1] reads the descriptor to its end with plain reads, past one read of 64 KiB, without making the stream', async () => {
    const text = JSON.stringify({ hook_event_name: 'PermissionRequest', pad: 'é'.repeat(50_000) });
    const fd = fdOf(text);
    try {
      expect(await readStdin(1024 * 1024, fd, never)).toEqual({ ok: true, text });
    } finally {
      closeSync(fd);
    }
  });

  it('[X1] refuses an event past the bound, naming it', async () => {
    const fd = fdOf('x'.repeat(2048));
    try {
      expect(await readStdin(1024, fd, never)).toEqual({ ok: false, why: 'the event on stdin is larger than 1024 bytes, the most askdock hook reads' });
    } finally {
      closeSync(fd);
    }
  });

  it('[X1] a descriptor that cannot be read so goes on as the stream, which is bounded the same', async () => {
    expect(await readStdin(1024, -1, () => Readable.from([Buffer.from('{"a":'), Buffer.from('1}')]))).toEqual({ ok: true, text: '{"a":1}' });
    expect(await readStdin(4, -1, () => Readable.from([Buffer.from('{"a":1}')]))).toMatchObject({ ok: false });
  });
});
