/** E10: `askdock routing test` through the real bin, on config files of its own. */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routingDocExample as docExample } from '../testing/routing-fixture.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
let dir: string;
let example: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'askdock-routing-'));
  example = join(dir, 'askdock.json');
  writeFileSync(example, docExample().text);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function askdock(...args: string[]) {
  return askdockIn({}, ...args);
}

function askdockIn(env: Record<string, string>, ...args: string[]) {
  const r = spawnSync(process.execPath, [join(ROOT, 'bin', 'askdock.js'), 'routing', ...args], { encoding: 'utf8', env: { ...process.env, ASKDOCK_CLI_SOURCES: '1', ...env } });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

describe('askdock routing test', { timeout: 60_000 }, () => {
  it('[E10] prints the route, each step with the people it reaches then, and the end (as docs/routing.md shows it)', () => {
    const r = askdock('test', '--config', example, '--agent', 'deploy-1', '--tool', 'Bash(git push origin main)', '--at', '2026-03-25T10:00+01:00');
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    const doc = readFileSync(join(ROOT, 'docs', 'routing.md'), 'utf8');
    const shown = /\$ askdock routing test [^\n]*\n([\s\S]*?)```/.exec(doc)?.[1];
    expect(r.out).toBe(shown);
  });

  it('[E10] --json: the steps with their times and people, the steps past the timeout, the end', () => {
    const at = '2026-03-25T10:00+01:00';
    const r = askdock('test', '--config', example, '--at', at, '--timeout', '600', '--json');
    expect(r.code).toBe(0);
    const out = JSON.parse(r.out);
    const t0 = Date.parse(at);
    expect(out.route).toEqual({ routes: [1], escalation: 'team' });
    expect(out.expiresAtMs).toBe(t0 + 600_000);
    expect(out.steps.map((s: { atMs: number; notify: string[] }) => [s.atMs - t0, s.notify])).toEqual([[0, ['bo']], [300_000, ['ana', 'bo', 'cy']]]);
    expect(out.unreached.map((s: { step: number; atMs: number }) => [s.step, s.atMs - t0])).toEqual([[2, 900_000], [3, 1_200_000]]);
    expect(out.exhausted).toEqual({ action: 'expire', atMs: t0 + 1_800_000, reached: false });
  });

  it('[E10][E2] a step names who its round notified already, as the gateway notifies each person once a round', () => {
    const at = '2026-03-25T10:00+01:00';
    const r = askdock('test', '--config', example, '--at', at, '--timeout', '3600');
    expect(r.code).toBe(0);
    expect(r.out.split('\n').filter((l) => l.startsWith('  step '))).toEqual([
      '  step 1  +0s      2026-03-25T09:00:00.000Z  schedule:primary -> bo',
      '  step 2  +5m      2026-03-25T09:05:00.000Z  group:team -> ana, bo (notified at step 1), cy',
      '  step 3  +15m     2026-03-25T09:15:00.000Z  schedule:primary -> bo',
      '  step 4  +20m     2026-03-25T09:20:00.000Z  group:team -> ana, bo (notified at step 3), cy',
    ]);
    const json = JSON.parse(askdock('test', '--config', example, '--at', at, '--timeout', '3600', '--json').out);
    expect(json.steps.map((s: { notify: string[]; alreadyNotified?: string[] }) => [s.notify, s.alreadyNotified])).toEqual([
      [['bo'], undefined], [['ana', 'bo', 'cy'], ['bo']], [['bo'], undefined], [['ana', 'bo', 'cy'], ['bo']],
    ]);
  });

  it('[E10][E2] nobody on call at the weekend and no step reaches anyone: each is skipped at once and the steps run out then', () => {
    const cfg = JSON.parse(docExample().text);
    cfg.routing.escalations.team.steps = [{ notify: ['schedule:primary'], wait: '5m' }];
    const file = join(dir, 'on-call-only.json');
    writeFileSync(file, JSON.stringify(cfg));
    const r = askdock('test', '--config', file, '--at', '2026-03-28T12:00+01:00', '--timeout', '3600');
    expect(r.code).toBe(0);
    expect(r.out.split('\n').slice(2)).toEqual([
      '  step 1  +0s      2026-03-28T11:00:00.000Z  schedule:primary -> nobody: skipped at once',
      '           skipped schedule:primary: nobody on call then',
      '  step 2  +0s      2026-03-28T11:00:00.000Z  schedule:primary -> nobody: skipped at once',
      '           skipped schedule:primary: nobody on call then',
      'then at +0s the steps run out: expire',
      '',
    ]);
  });

  it('[E10] --at takes an ISO time without an offset as the local time', () => {
    const local = askdockIn({ TZ: 'Europe/Berlin' }, 'test', '--config', example, '--at', '2026-03-25T10:00', '--json');
    expect(local.err).toBe('');
    expect(local.code).toBe(0);
    expect(JSON.parse(local.out).atMs).toBe(Date.parse('2026-03-25T10:00+01:00'));
  });

  it('[E10] a question no route takes is said to go to everyone, as without routing', () => {
    const r = askdock('test', '--config', example, '--kind', 'secret');
    expect([r.code, r.out]).toEqual([0, 'no route matches: the question goes to everyone who may see it, as without routing\n']);
  });

  it('[E1] a routing block with faults: exit 1, each fault with its path', () => {
    const bad = JSON.parse(docExample().text);
    bad.routing.escalations.team.steps[0].wait = '2s';
    bad.routing.escalations.deploy.exhausted = 'allow';
    const file = join(dir, 'bad.json');
    writeFileSync(file, JSON.stringify(bad));
    const r = askdock('test', '--config', file);
    expect(r.code).toBe(1);
    expect(r.out).toBe('');
    expect(r.err).toBe(
      `askdock routing test: config ${file}: routing.escalations.team.steps[0].wait: must be between 5s and 24h, got "2s" (2s)\n` +
        `askdock routing test: config ${file}: routing.escalations.deploy.exhausted: may not be "allow": nothing is ever allowed because nobody answered (use "deny", "expire" or "keep")\n`,
    );
  });

  it('[E10] bad flags: exit 2, each named', () => {
    const r = askdock('test', '--kind', 'mail', '--at', 'tomorrow', '--tool', 'Bash(', '--timeout', '5');
    expect(r.code).toBe(2);
    expect(r.err).toContain('askdock routing test: --tool: must be a tool request');
    expect(r.err).toContain('askdock routing test: --kind: must be one of question, approval, elicitation, secret, got "mail"');
    expect(r.err).toContain('askdock routing test: --at: must be an ISO time such as');
    expect(r.err).toContain('askdock routing test: --timeout: must be 30..3600 seconds');
    expect(askdock('nope').code).toBe(2);
    // --config reads the file; --url and --token are for asking the running gateway instead (E10).
    const both = askdock('test', '--config', example, '--url', 'ws://127.0.0.1:9');
    expect(both.code).toBe(2);
    expect(both.err).toContain('askdock routing test: --url and --token ask the running gateway: leave them out with --config');
  });
});
