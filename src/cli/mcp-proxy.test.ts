import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { BIN } from '../testing/tmux.ts';

/** `askdock mcp-proxy` wrapping `command`, with a gateway that is not there; resolves with its stderr once it ends. */
function proxyStderr(command: string): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, [BIN, 'mcp-proxy', '--url', 'ws://127.0.0.1:9/ws', '--token', 'tok', '--', command], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
  return new Promise((done) => child.on('close', (code) => done({ code, stderr })));
}

describe('askdock mcp-proxy on stderr', { timeout: 60_000 }, () => {
  it('[X5] a server command carrying escape sequences is named cleaned: controls as U+FFFD, a bidi override as its escape', async () => {
    const out = await proxyStderr('no-such-server\u001b]0;owned\u0007\u001b]8;;http://e.t\u0007\u202Ecmd');
    expect(out.code).toBe(1);
    expect(out.stderr).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
    expect(out.stderr).toContain('no-such-server\uFFFD]0;owned\uFFFD\uFFFD]8;;http://e.t\uFFFD\\u202Ecmd');
  });
});
