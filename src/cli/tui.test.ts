import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN, spawnStart, TmuxScreen, type StartChild } from '../testing/tmux.ts';
import { TestClient } from '../testing/ws-client.ts';

const cleanups: (() => void | Promise<void>)[] = [];
afterEach(async () => {
  // Always: our own tmux servers, children and temp dirs, even when a test failed.
  for (const fn of cleanups.splice(0).reverse()) await fn();
});

const tempDir = (name: string) => {
  const dir = mkdtempSync(join(tmpdir(), `askdock-tui-${name}-`));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
};
const screenOf = (command: string[], opts: { cwd: string; env?: Record<string, string> }) => {
  const screen = TmuxScreen.start(command, opts);
  cleanups.push(() => screen.kill());
  return screen;
};
const started = async (cwd: string, port = 0) => {
  const child: StartChild = await spawnStart(cwd, port);
  cleanups.push(async () => {
    child.proc.kill('SIGKILL');
    await child.exit;
  });
  return child;
};
const operatorToken = (cwd: string) =>
  JSON.parse(readFileSync(join(cwd, '.askdock', 'identities.json'), 'utf8')).identities.find((i: { role: string }) => i.role === 'operator').token as string;
const questionsOf = async (port: number, token: string) => {
  const c = await TestClient.open(`ws://127.0.0.1:${port}/ws`);
  cleanups.push(() => c.close());
  expect((await c.connect(token, { mode: 'cli' })).ok).toBe(true);
  return (await c.call('question.list', {})).questions;
};

/** The new user's way through: `deploy`, both questions by keys alone, the demo agent's report. */
async function answerDeploy(screen: TmuxScreen) {
  await screen.waitFor('New session', 60_000);
  screen.type('deploy');
  screen.send(['Enter']);
  await screen.waitFor('Question 1 of 2');
  expect(screen.capture()).toContain('1. Staging (Recommended)');
  expect(screen.capture()).toMatch(/1[45]:\d\d left/);
  screen.send(['1']);
  await screen.waitFor('Question 2 of 2');
  screen.send(['1']);
  await screen.waitFor('[x] 1. Email');
  screen.send(['2']);
  await screen.waitFor('[x] 2. Slack');
  screen.send(['Enter']);
  await screen.waitFor('✓ Environment: Staging · Notify: Email, Slack');
  await screen.waitFor('Got: Environment: Staging (Recommended); Notify: Email, Slack');
}

describe('askdock tui in a real terminal', () => {
  it('[V1][V2][V5] finds the local gateway and operator token of .askdock/ by itself; answers by keys; Ctrl+C restores the screen', async () => {
    const cwd = tempDir('start');
    const { port } = await started(cwd);
    // ASKDOCK_URL as the other commands take it (no /ws); the token comes from ./.askdock/identities.json.
    const screen = screenOf(['node', BIN, 'tui'], { cwd, env: { ASKDOCK_URL: `ws://127.0.0.1:${port}` } });
    await answerDeploy(screen);
    const [q] = await questionsOf(port, operatorToken(cwd));
    expect(q).toMatchObject({ status: 'answered', answers: { env: ['Staging (Recommended)'], notify: ['Email', 'Slack'] } });
    expect(q.resolvedBy).toMatchObject({ identity: 'operator', surface: 'tui' });
    screen.send(['C-c']);
    const after = await screen.waitFor('TUI EXITED 0');
    expect(after).toContain('BEFORE-TUI');
    expect(after).not.toContain('Connected');
    expect(after).not.toContain('Question');
  }, 120_000);

  it('[V1][V4][V6][PT5] --url and --token; a plain reply answers (surface tui); a restart shows Reconnecting… and brings the question back', async () => {
    const cwd = tempDir('url');
    const first = await started(cwd);
    const token = operatorToken(cwd);
    const screen = screenOf(['node', BIN, 'tui', '--url', `ws://127.0.0.1:${first.port}`, '--token', token], { cwd: tempDir('elsewhere') });
    await screen.waitFor('New session', 60_000);
    screen.type('deploy');
    screen.send(['Enter']);
    await screen.waitFor('Question 1 of 2');
    screen.send(['Escape']);
    await screen.waitFor('1 question pending · /question to answer');
    screen.type('nobody');
    screen.send(['Enter']);
    await screen.waitFor(/Not sent: Environment\s+is\s+left\s+out/);
    screen.send(['C-u']);
    // The gateway goes away and comes back on the same file and port: the pending question returns (R3, V6).
    first.proc.kill('SIGKILL');
    await first.exit;
    await screen.waitFor('Reconnecting…');
    await started(cwd, first.port);
    await screen.waitFor('Connected');
    await screen.waitFor('1 question pending · /question to answer');
    expect(screen.capture()).toMatch(/you\s+deploy/);
    // Its asker went with the old process: answered now, the record keeps it (the new demo agent has no run waiting).
    screen.type('1: production');
    screen.send(['M-Enter']);
    screen.type('2: 3');
    screen.send(['Enter']);
    await screen.waitFor('✓ Environment: Production · Notify: Pager');
    const [q] = await questionsOf(first.port, token);
    expect(q).toMatchObject({ status: 'answered', answers: { env: ['Production'], notify: ['Pager'] }, resolvedBy: { surface: 'tui' } });
    expect(q.replyMessageId).toBeTruthy();
    screen.type('/quit');
    screen.send(['Enter']);
    await screen.waitFor('TUI EXITED 0');
  }, 180_000);

  it('[V7] --local needs no gateway: the demo agent answers on the same screens and nothing is written to disk', async () => {
    const cwd = tempDir('local');
    const home = tempDir('home');
    const screen = screenOf(['node', BIN, 'tui', '--local'], { cwd, env: { HOME: home, XDG_CONFIG_HOME: home, XDG_DATA_HOME: home } });
    await screen.waitFor('askdock (local)', 60_000);
    await answerDeploy(screen);
    screen.send(['C-c']);
    await screen.waitFor('TUI EXITED 0');
    expect(readdirSync(cwd)).toEqual([]);
    expect(readdirSync(home)).toEqual([]);
  }, 120_000);

  it('[W3] a composer message that looks like a credential waits for a yes: n goes back to editing, y sends it', async () => {
    const cwd = tempDir('credential');
    const home = tempDir('credential-home');
    const screen = screenOf(['node', BIN, 'tui', '--local'], { cwd, env: { HOME: home, XDG_CONFIG_HOME: home, XDG_DATA_HOME: home } });
    await screen.waitFor('New session', 60_000);
    const token = `ghp_${'a1B2c3D4e5'.repeat(4)}`;
    screen.type(`use ${token}`);
    screen.send(['Enter']);
    await screen.waitFor('This looks like a GitHub token. Messages are saved in the conversation and read by the agent. Send it anyway?');
    expect(screen.capture()).toContain('y/Enter send · n/Esc edit');
    // Not sent: no row of the transcript holds it, and `n` gives the composer back with the text in it.
    expect(screen.capture()).not.toMatch(/you\s+use ghp_/);
    screen.send(['n']);
    await screen.waitFor(`› use ${token}`);
    expect(screen.capture()).not.toMatch(/you\s+use ghp_/);
    screen.send(['Enter']);
    await screen.waitFor('Send it anyway?');
    screen.send(['y']);
    await screen.waitFor(/you\s+use ghp_/);
    expect(screen.capture()).not.toContain('Send it anyway?');
    screen.send(['C-c']);
    await screen.waitFor('TUI EXITED 0');
  }, 120_000);

  it('[V1] without a token anywhere it says how to give one and exits 2', async () => {
    const cwd = tempDir('notoken');
    const screen = screenOf(['node', BIN, 'tui'], { cwd, env: { ASKDOCK_URL: 'ws://127.0.0.1:9' } });
    const shown = await screen.waitFor('TUI EXITED 2');
    expect(shown).toContain('--token: no operator token');
  }, 60_000);
});
