import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { tokenOf } from '../testing/gateway-harness.ts';
import { verifierKeys } from '../testing/audit-gateway.ts';
import { runAskdock } from '../testing/hook-process.ts';
import { gatewayOnOlderLog } from '../testing/older-audit-entries.ts';

let g: Awaited<ReturnType<typeof gatewayOnOlderLog>> | undefined;
afterEach(async () => {
  await g?.close();
  g = undefined;
});

it('[L5][L6] audit export --agent over a log from before the asking identity was the agent: older entries found, the ones it cannot tell said, and the export verifies', { timeout: 60_000 }, async () => {
  g = await gatewayOnOlderLog();
  const { t } = g;
  const out = join(mkdtempSync(join(tmpdir(), 'askdock-export-')), 'export');
  const exported = await runAskdock(['audit', 'export', '--agent', 'agent', '--out', out], { cwd: t.dir, env: { ASKDOCK_URL: t.gw.wsUrl, ASKDOCK_TOKEN: tokenOf('admin') } });
  expect(exported.code).toBe(0);
  expect(exported.stdout).toMatch(/^exported 4 entries into /);
  expect(exported.stderr).toContain('askdock audit export: --agent could not tell whose 1 entries were');
  const key = (await verifierKeys(t))[0];
  const valid = await runAskdock(['audit', 'verify', out, '--key', key], { cwd: tmpdir() });
  expect(valid.stderr).toBe('');
  expect(valid.code).toBe(0);
});
