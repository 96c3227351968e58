import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readHookEvent } from './hook.ts';
import { decisionOutput } from './hook-ask.ts';
import { nextEvent, startTestGateway, type TestGateway } from '../testing/agent-harness.ts';
import { parseCodexToml } from '../testing/codex-toml.ts';

const HERE = dirname(fileURLToPath(import.meta.url));
const doc = readFileSync(resolve(HERE, '../../docs/agents.md'), 'utf8');
const section = doc.slice(doc.indexOf('## Approvals, questions and elicitations agents already ask'));
const fixture = (name: string) => readFileSync(resolve(HERE, '../testing/hook-fixtures', `${name}.json`), 'utf8');

/** The fenced blocks of `lang` in the X7 section, each under the heading it sits in. */
function blocks(lang: string): { heading: string; body: string }[] {
  const out: { heading: string; body: string }[] = [];
  let heading = '';
  const re = /^(#{2,3} .*)$|^```(\w+)\n([\s\S]*?)^```$/gm;
  for (const m of section.matchAll(re)) {
    if (m[1]) heading = m[1];
    else if (m[2] === lang) out.push({ heading, body: m[3] });
  }
  return out;
}

type HooksBlock = { hooks: Record<string, { matcher: string; hooks: { type: string; command: string; timeout: number }[] }[]> };

/** Which documented event example each hook event of the docs is tried with. */
const EXAMPLES: Record<string, Record<string, string[]>> = {
  'Claude Code': { PermissionRequest: ['claude-bash', 'claude-edit', 'claude-write', 'claude-mcp-tool', 'claude-ask-single', 'claude-ask-four'], Elicitation: ['claude-elicitation-form', 'claude-elicitation-url'] },
  Codex: { PermissionRequest: ['codex-bash'] },
};

describe('docs/agents.md (X7)', () => {
  it('[X7] every JSON block parses; the hook blocks of Claude Code and Codex name `askdock hook` with its own flags only', () => {
    const json = blocks('json');
    expect(json.length).toBeGreaterThanOrEqual(3);
    for (const b of json) expect(() => JSON.parse(b.body), `${b.heading}:\n${b.body}`).not.toThrow();
    const hooks = json.map((b) => ({ ...b, parsed: JSON.parse(b.body) as HooksBlock })).filter((b) => b.parsed.hooks);
    expect(hooks.map((b) => b.heading)).toEqual(['### Claude Code: the permission hook', '### Codex: the permission hook']);
    for (const b of hooks) {
      const agent = b.heading.includes('Codex') ? 'Codex' : 'Claude Code';
      expect(Object.keys(b.parsed.hooks).sort()).toEqual(Object.keys(EXAMPLES[agent]).sort());
      for (const [event, entries] of Object.entries(b.parsed.hooks)) {
        for (const entry of entries) {
          for (const hook of entry.hooks) {
            expect(hook.type).toBe('command');
            const [bin, command, ...flags] = hook.command.split(/\s+/);
            expect(`${bin} ${command}`).toBe('askdock hook');
            const names = flags.filter((f) => f.startsWith('--'));
            for (const name of names) expect(['--url', '--token', '--timeout', '--session']).toContain(name);
            // The agent's own timeout leaves room for the hook's 120 s.
            expect(hook.timeout).toBeGreaterThan(120);
          }
        }
        // Each documented event example of that agent is one the hook asks (none ignored, none unreadable).
        for (const name of EXAMPLES[agent][event]) {
          const read = readHookEvent(fixture(name));
          expect(read.kind, name).toBe(event === 'Elicitation' ? 'elicitation' : 'tool');
          if (read.kind === 'tool' || read.kind === 'elicitation') expect(read.agent).toBe(agent);
        }
      }
    }
  });

  it('[X7] the decision shown is the one the hook prints for Allow', () => {
    const shown = blocks('json').find((b) => JSON.parse(b.body).hookSpecificOutput);
    expect(JSON.parse(shown!.body)).toEqual(decisionOutput('PermissionRequest', 'Claude Code', { behavior: 'allow' }));
  });

  it('[X7] the proxy line for Claude Code, the Codex table and the SDK callback are there', () => {
    expect(section).toMatch(/^claude mcp add [\w-]+ (--env ASKDOCK_\w+=(<agent token>|\S+) )+-- askdock mcp-proxy -- \S.*$/m);
    expect(blocks('toml')[0].body).toContain('args = ["mcp-proxy", "--",');
    expect(blocks('ts')[0].body).toContain("import { askdockCanUseTool } from 'askdock/claude-agent-sdk';");
    expect(section).toContain('120 seconds');
  });
});

const BIN = resolve(HERE, '../../bin/askdock.js');
const SERVER = [process.execPath, '--import', pathToFileURL(resolve(HERE, '../../node_modules/tsx/dist/loader.mjs')).href, resolve(HERE, '../testing/elicit-server.ts')];

/** `claude mcp add NAME [--env K=V]... -- COMMAND ARGS` read as Claude Code reads it: the env it sets and what it runs. */
function claudeMcpAdd(line: string): { env: Record<string, string>; command: string[] } {
  // The docs' placeholder is one word for the shell once filled in.
  const words = line.trim().replaceAll('<agent token>', '<agent-token>').split(/\s+/).map((w) => w.replaceAll('<agent-token>', '<agent token>'));
  const split = words.indexOf('--');
  const env: Record<string, string> = {};
  words.slice(3, split).forEach((w, i, own) => {
    if (w === '--env' || w === '-e') {
      const [k, ...v] = own[i + 1].split('=');
      env[k] = v.join('=');
    }
  });
  return { env, command: words.slice(split + 1) };
}

describe('docs/agents.md proxy configs, run (X7, X5)', { timeout: 180_000 }, () => {
  let t: TestGateway;
  let cwd: string;
  beforeAll(async () => {
    t = await startTestGateway();
    // A folder without ./.askdock: only what the config passes reaches the proxy.
    cwd = mkdtempSync(join(tmpdir(), 'askdock-docs-run-'));
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    rmSync(cwd, { recursive: true, force: true });
  });

  /** Runs a documented proxy config (`askdock` the bin, the example server ours, the docs' address and token this gateway's). */
  async function run(env: Record<string, string>, command: string[]) {
    const fill = (v: string) => v.replace('ws://127.0.0.1:7420', t.url).replace('<agent token>', t.agentToken);
    expect(command.slice(0, 3)).toEqual(['askdock', 'mcp-proxy', '--']);
    const args = [BIN, 'mcp-proxy', '--', ...SERVER];
    const filled = Object.fromEntries(Object.entries(env).map(([k, v]) => [k, fill(v)]));
    const transport = new StdioClientTransport({ command: process.execPath, args, cwd, env: { ...getDefaultEnvironment(), ...filled }, stderr: 'pipe' });
    let stderr = '';
    transport.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
    const client = new Client({ name: 'docs-run', version: '1.0.0' }, { capabilities: {} });
    await client.connect(transport);
    return { client, stderr: () => stderr };
  }

  /** Calls the server's `deploy` tool (it elicits) and skips the question asked in askdock; the tool's result. */
  async function deployAnsweredInAskdock(client: Client) {
    const asked = nextEvent(t.operator, 'question.requested');
    const call = client.callTool({ name: 'deploy', arguments: {} });
    await t.operator.request('question.resolve', { id: (await asked).question.id, skip: true });
    return JSON.parse(((await call).content as { text: string }[])[0].text) as unknown;
  }

  it('[X7] the `claude mcp add` proxy line, run as Claude Code runs it: the elicitation is asked in askdock', async () => {
    const line = section.split('\n').find((l) => l.startsWith('claude mcp add shop-tools'))!;
    const { env, command } = claudeMcpAdd(line);
    expect(Object.keys(env).sort()).toEqual(['ASKDOCK_TOKEN', 'ASKDOCK_URL']);
    const { client } = await run(env, command);
    try {
      expect((await client.listTools()).tools.map((x) => x.name)).toContain('deploy');
      expect(await deployAnsweredInAskdock(client)).toEqual({ action: 'decline' });
    } finally {
      await client.close();
    }
  });

  it('[X7] the Codex `[mcp_servers.shop-tools]` table, parsed and run: the elicitation is asked in askdock', async () => {
    const table = parseCodexToml(blocks('toml').find((b) => b.body.includes('mcp-proxy'))!.body)['mcp_servers.shop-tools'];
    const { client } = await run(table.env as Record<string, string>, [table.command as string, ...(table.args as string[])]);
    try {
      expect(await deployAnsweredInAskdock(client)).toEqual({ action: 'decline' });
    } finally {
      await client.close();
    }
  });

  it('[X5] a proxy with no token still relays the server: its tools work, an elicitation is answered cancel, stderr says why', async () => {
    const { client, stderr } = await run({}, ['askdock', 'mcp-proxy', '--', 'node', 'server.js']);
    try {
      expect((await client.listTools()).tools.map((x) => x.name)).toContain('deploy');
      const result = await client.callTool({ name: 'deploy', arguments: {} });
      expect(JSON.parse((result.content as { text: string }[])[0].text)).toEqual({ action: 'cancel' });
      expect(stderr()).toContain('--token: no agent token');
      expect(stderr()).toContain('elicitation not asked: askdock is not set up');
    } finally {
      await client.close();
    }
  });

  it('[X5] a proxy whose gateway is not there relays the server too: an elicitation is answered cancel, stderr says why', async () => {
    const { client, stderr } = await run({ ASKDOCK_URL: 'ws://127.0.0.1:9', ASKDOCK_TOKEN: 'adk_no-gateway-listens-here-000000' }, ['askdock', 'mcp-proxy', '--', 'node', 'server.js']);
    try {
      const result = await client.callTool({ name: 'deploy', arguments: {} });
      expect(JSON.parse((result.content as { text: string }[])[0].text)).toEqual({ action: 'cancel' });
      expect(stderr()).toContain('elicitation not asked:');
    } finally {
      await client.close();
    }
  });
});
