import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { SERVER_VERSION } from '../protocol/index.ts';

const run = promisify(execFile);
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const work = mkdtempSync(join(tmpdir(), 'askdock-install-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Only what a user's shell would have: no ASKDOCK_* and no npm settings inherited from the test runner. */
function cleanEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!/^(ASKDOCK_|npm_)/i.test(k)) env[k] = v;
  return env;
}

describe('installing the packed tarball', () => {
  it('[install] `npm install -g` of the tarball gives an askdock that runs from any folder: --version and mcp tools/list', { timeout: 600_000 }, async () => {
    const env = cleanEnv();
    // The UI build (prepack) is left out here: what is checked is that the bin, its sources and dependencies install and run.
    await run('npm', ['pack', '--ignore-scripts', '--pack-destination', work], { cwd: ROOT, env });
    const tarball = readdirSync(work).find((f) => f.endsWith('.tgz'));
    expect(tarball).toBeDefined();
    const prefix = join(work, 'prefix');
    // From the local npm cache where it has everything (offline); scripts skipped: neither --version nor mcp opens a database.
    await run(
      'npm',
      ['install', '--global', '--prefix', prefix, '--prefer-offline', '--ignore-scripts', '--no-audit', '--no-fund', join(work, tarball!)],
      { cwd: work, env, maxBuffer: 16 * 1024 * 1024 },
    );
    const bin = join(prefix, 'bin', 'askdock');
    expect(existsSync(bin)).toBe(true);
    const installed = join(prefix, 'lib', 'node_modules', 'askdock');
    // A copy inside the prefix, not a link back to this checkout; and no tests shipped.
    expect(realpathSync(bin).startsWith(realpathSync(installed))).toBe(true);
    expect(existsSync(join(installed, 'src', 'cli', 'main.ts'))).toBe(true);
    expect(existsSync(join(installed, 'src', 'cli', 'install.test.ts'))).toBe(false);

    const elsewhere = mkdtempSync(join(work, 'elsewhere-'));
    const { stdout } = await run(bin, ['--version'], { cwd: elsewhere, env });
    expect(stdout).toBe(`askdock ${SERVER_VERSION}\n`);

    // No gateway runs: tools/list answers all the same (the connection is made in the background).
    const transport = new StdioClientTransport({
      command: bin,
      args: ['mcp', '--url', 'ws://127.0.0.1:9/ws', '--token', 'not-a-real-token'],
      cwd: elsewhere,
      env: env as Record<string, string>,
      stderr: 'ignore',
    });
    const client = new Client({ name: 'install-check', version: '1.0.0' });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toContain('ask_user');
    } finally {
      await client.close();
    }
  });
});
