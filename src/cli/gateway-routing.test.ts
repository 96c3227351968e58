import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO } from '../testing/gateway-child.ts';

const dir = mkdtempSync(join(tmpdir(), 'askdock-cli-routing-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const identities = [{ id: 'op', token: 'token-of-op-0123456789abcdef', role: 'operator', scopes: ['operator.admin'] }];
const runBin = (args: string[]) => spawnSync(process.execPath, ['bin/askdock.js', 'gateway', ...args], { cwd: REPO, encoding: 'utf8', timeout: 30_000 });

describe('askdock gateway with a routing block (E1)', () => {
  it('[E1] a routing block with faults stops the start with exit 1, naming each fault by its place in the config', () => {
    const config = join(dir, 'askdock.json');
    const routing = {
      escalations: { prod: { steps: [{ notify: ['identity:nobody'], wait: '1s' }], exhausted: 'allow' } },
      routes: [{ match: { tool: 'mcp__x(y)' }, escalation: 'prod' }],
    };
    writeFileSync(config, JSON.stringify({ identities, routing }));
    const res = runBin(['--port', '0', '--db', join(dir, 'askdock.db'), '--config', config]);
    expect(res.status).toBe(1);
    expect(res.stderr).toContain(`askdock gateway: the routing block in ${config} is not valid`);
    expect(res.stderr).toContain('routing.escalations.prod.steps[0].notify[0]: unknown target');
    expect(res.stderr).toContain('routing.escalations.prod.steps[0].wait: must be between 5s and 24h');
    expect(res.stderr).toContain('routing.escalations.prod.exhausted: may not be "allow"');
    expect(res.stderr).toContain('routing.routes[0].match.tool: MCP tools take no specifier');
    expect(res.stdout).not.toContain('listening');
  }, 60_000);
});
