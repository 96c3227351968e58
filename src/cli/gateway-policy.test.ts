import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO } from '../testing/gateway-child.ts';

const dir = mkdtempSync(join(tmpdir(), 'askdock-cli-policy-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const identities = [{ id: 'op', token: 'token-of-op-0123456789abcdef', role: 'operator', scopes: ['operator.admin'] }];
const runBin = (args: string[]) => spawnSync(process.execPath, ['bin/askdock.js', 'gateway', ...args], { cwd: REPO, encoding: 'utf8', timeout: 30_000 });

describe('askdock gateway with an approval policy (G10)', () => {
  it('[G10] a policy that does not load stops the start with exit 1, naming the file, the code POLICY_INVALID, the place in it and the problem', () => {
    const config = join(dir, 'askdock.json');
    const rules = [
      { id: 'tests', rule: 'Bash(npm run test *)', decision: 'allow' },
      { id: 'broken', rule: 'Bash(npm run test', decision: 'allow' },
    ];
    writeFileSync(config, JSON.stringify({ identities, approvals: { rules } }));
    const res = runBin(['--port', '0', '--db', join(dir, 'askdock.db'), '--config', config]);
    expect(res.status).toBe(1);
    expect(res.stderr).toContain(`askdock gateway: the approval policy in ${config} does not load (POLICY_INVALID): approvals.rules[1].rule: `);
    expect(res.stdout).not.toContain('listening');
  }, 60_000);
});
