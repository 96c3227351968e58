import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO, spawnGateway, type GatewayChild } from '../testing/gateway-child.ts';
import { TestClient } from '../testing/ws-client.ts';

const dir = mkdtempSync(join(tmpdir(), 'askdock-cli-'));
const children: GatewayChild[] = [];
afterAll(() => {
  for (const c of children) c.proc.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

const runBin = (args: string[]) => spawnSync(process.execPath, ['bin/askdock.js', 'gateway', ...args], { cwd: REPO, encoding: 'utf8', timeout: 15_000 });

describe('askdock gateway', () => {
  it('bad flags print a message on stderr and exit 2', () => {
    for (const args of [['--port', 'abc'], ['--port', '70000'], ['--bogus'], ['extra'], ['--public-url', 'ftp://askdock.team.example']]) {
      const res = runBin(args);
      expect(res.status, args.join(' ')).toBe(2);
      expect(res.stderr).toMatch(/askdock gateway: .+\nusage: askdock gateway/);
    }
  }, 90_000); // four cold starts of the bin, one after another: allow a busy machine

  it('[Q7] --ui DIR serves that Control UI build; --requester-grace S sets how long an asker may stay away; bad values exit 2 naming the flag', async () => {
    const ui = join(dir, 'ui');
    mkdirSync(ui, { recursive: true });
    writeFileSync(join(ui, 'index.html'), '<!doctype html><title>my build</title><p>served from --ui</p>');
    for (const args of [['--ui', join(dir, 'nothing-here')], ['--requester-grace', 'soon']]) {
      const res = runBin(['--port', '0', '--db', join(dir, 'flags.db'), ...args]);
      expect(res.status, args.join(' ')).toBe(2);
      expect(res.stderr).toContain(`askdock gateway: ${args[0]}`);
    }
    const db = join(dir, 'ui-run', 'askdock.db');
    const child = await spawnGateway(['--port', '0', '--db', db, `--ui=${ui}`, '--requester-grace', '1']);
    children.push(child);
    expect(await (await fetch(`${child.url}/`)).text()).toContain('served from --ui');
    const { identities } = JSON.parse(readFileSync(join(dir, 'ui-run', 'identities.json'), 'utf8')) as { identities: { role: string; token: string }[] };
    const agent = await TestClient.open(child.wsUrl);
    expect((await agent.connect(identities.find((i) => i.role === 'agent')!.token, { clientId: 'asker', mode: 'agent' })).ok).toBe(true);
    const operator = await TestClient.open(child.wsUrl);
    expect((await operator.connect(identities.find((i) => i.role === 'operator')!.token)).ok).toBe(true);
    const { session } = await operator.call('sessions.create', {});
    const { runId } = await agent.call('run.start', { sessionKey: session.key });
    const question = { id: 'go', header: 'Go', question: 'Go on?', options: [{ label: 'Yes' }, { label: 'No' }] };
    const { id } = await agent.call('question.request', { runId, questions: [question], timeoutMs: 600_000 });
    agent.close();
    await expect
      .poll(async () => (await operator.call('question.get', { id })).question.reason, { timeout: 30_000 })
      .toBe('requester-inactive');
    child.proc.kill('SIGTERM');
    expect((await child.exit).code).toBe(0);
  }, 90_000);

  it('[A1] a bad config file exits 2 naming the field', () => {
    const config = join(dir, 'bad.json');
    writeFileSync(config, JSON.stringify({ identities: [{ id: 'x', token: '', role: 'operator', scopes: [] }] }));
    const res = runBin(['--port', '0', '--db', join(dir, 'bad.db'), '--config', config]);
    expect(res.status).toBe(2);
    expect(res.stderr).toContain('identities[0].token: token must not be empty');
  });

  it('[G10] a config file that is not JSON (its approvals cannot load) stops the gateway with exit 1, naming the file', () => {
    const config = join(dir, 'not-json.json');
    writeFileSync(config, '{"approvals": {"rules": [{"rule": "Bash(ls *)", "decision": "allow"}');
    const res = runBin(['--port', '0', '--db', join(dir, 'not-json.db'), '--config', config]);
    expect(res.status).toBe(1);
    expect(res.stderr).toContain(`${config}: not valid JSON`);
  });

  it('[storage] a second gateway on the same database exits 1 with a clear message; a SIGKILLed one leaves no stale lock', async () => {
    const db = join(dir, 'locked', 'askdock.db');
    const first = await spawnGateway(['--port', '0', '--db', db]);
    children.push(first);
    const second = runBin(['--port', '0', '--db', db]);
    expect(second.status).toBe(1);
    expect(second.stderr).toContain(`${db} is in use by another askdock gateway`);
    first.proc.kill('SIGKILL');
    await first.exit;
    const after = await spawnGateway(['--port', '0', '--db', db]);
    children.push(after);
    after.proc.kill('SIGTERM');
    expect((await after.exit).code).toBe(0);
  }, 40_000);

  it('[S4] a config token shorter than 24 characters is refused at start beyond loopback, naming the field; on loopback it starts with a warning', async () => {
    const config = join(dir, 'short-token.json');
    writeFileSync(config, JSON.stringify({ identities: [{ id: 'ops', token: 'twenty-one-characters', role: 'operator', scopes: ['operator.admin'] }] }));
    const res = runBin(['--host', '0.0.0.0', '--port', '0', '--db', join(dir, 'short.db'), '--config', config]);
    expect(res.status).toBe(2);
    expect(res.stderr).toContain('identities[0].token: token must be at least 24 characters');
    const child = await spawnGateway(['--port', '0', '--db', join(dir, 'short-loopback.db'), '--config', config]);
    children.push(child);
    const c = await TestClient.open(child.wsUrl);
    expect((await c.connect('twenty-one-characters')).ok).toBe(true);
    const said = () => [...child.stdout, ...child.stderr].join('');
    await expect.poll(said, { timeout: 10_000 }).toContain('identities[0].token: token must be at least 24 characters');
    c.close();
    child.proc.kill('SIGTERM');
    expect((await child.exit).code).toBe(0);
  }, 40_000);

  it('[A1] prints the listening address and, with generated identities, the Control UI link; SIGTERM closes sockets with 1001 and exits 0', async () => {
    const db = join(dir, 'run', 'askdock.db');
    const child = await spawnGateway(['--port', '0', '--db', db]);
    children.push(child);
    expect(child.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(child.url).not.toMatch(/:0$/);
    const identities = JSON.parse(readFileSync(join(dir, 'run', 'identities.json'), 'utf8'));
    const operator = identities.identities.find((i: { id: string }) => i.id === 'operator');
    // The link is a line of its own after the listening line; on a busy machine it may come a while later.
    await expect.poll(() => child.stdout, { timeout: 10_000 }).toContain(`Control UI: ${child.url}/?token=${operator.token}`);
    const c = await TestClient.open(child.wsUrl);
    expect((await c.connect(operator.token)).ok).toBe(true);
    child.proc.kill('SIGTERM');
    expect((await c.waitClose(5000)).code).toBe(1001);
    expect((await child.exit).code).toBe(0);

    // Started again: the same identities, and the same operator's link again (A1), not saved anew.
    const again = await spawnGateway(['--port', '0', '--db', db]);
    children.push(again);
    await expect.poll(() => again.stdout, { timeout: 10_000 }).toContain(`Control UI: ${again.url}/?token=${operator.token}`);
    expect(again.stdout.some((l) => l.startsWith('identities saved'))).toBe(false);
    again.proc.kill('SIGINT');
    expect((await again.exit).code).toBe(0);
  }, 30_000);
});
