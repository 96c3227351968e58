import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { REPO } from '../../testing/gateway-child.ts';
import { testPostgresUrl } from '../../testing/postgres.ts';

/** `npm run soak -- --gateways 3 --db …` for half a minute: the same run as the long soak, with fewer faults. */
function soak(args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((done) => {
    const proc = spawn(process.execPath, ['--import', 'tsx', 'bench/soak.ts', ...args], { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    proc.stdout.on('data', (c: Buffer) => (out += c.toString()));
    proc.stderr.on('data', (c: Buffer) => (err += c.toString()));
    proc.on('exit', (code) => done({ code, out, err }));
  });
}

const row = (out: string, label: string) => new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s+(\\d+)`, 'm').exec(out)?.[1];

describe('soak across three gateways on PostgreSQL', () => {
  it('[D2][D4][R3] three gateways, one SIGKILLed at a time under load: 0 lost, 0 duplicates', { timeout: 400_000 }, async () => {
    const { code, out, err } = await soak(['--minutes', '0.5', '--gateways', '3', '--db', testPostgresUrl(), '--seed', '19']);
    expect(out, err.slice(-3000)).toContain('3 gateways on PostgreSQL');
    expect(Number(row(out, 'questions asked'))).toBeGreaterThan(0);
    expect(Number(row(out, 'gateway SIGKILL + restart (one of several)'))).toBeGreaterThanOrEqual(1);
    // On failure the soak's own lines say what was lost or doubled.
    expect(row(out, 'duplicates (must be 0)'), out.slice(-4000)).toBe('0');
    expect(row(out, 'lost (must be 0)'), out.slice(-4000)).toBe('0');
    expect(out).toMatch(/^PASS$/m);
    expect(code).toBe(0);
  });

  it('[D2] the soak refuses several gateways on anything but PostgreSQL, naming the flag', async () => {
    const { code, err } = await soak(['--gateways', '3', '--db', './askdock.db']);
    expect(code).toBe(2);
    expect(err).toContain('--db must be a postgres:// URL');
  });
});
