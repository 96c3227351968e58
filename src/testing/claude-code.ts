/**
 * The real Claude Code CLI (the `@anthropic-ai/claude-code` dev dependency) run interactively in a private tmux
 * server against a loopback fake model API: its PermissionRequest hooks fire only in the interactive mode.
 * HOME is a fresh folder whose `~/.claude.json` skips the first-run screens, so nothing reaches the network.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO } from './gateway-child.ts';
import { BIN, TmuxScreen } from './tmux.ts';
import { startFakeModelApi, type FakeModelApi } from './fake-model-api.ts';

export const CLAUDE_BIN = join(REPO, 'node_modules', '.bin', 'claude');

/** Any key works against the fake; the CLI keys its "use this API key?" answer by the key's last 20 characters. */
const API_KEY = 'sk-ant-api03-askdock-fake-model-api-key-0001';

/** The hook command a project wires, as docs/agents.md shows it without the global install. */
export const HOOK_COMMAND = `${process.execPath} ${BIN} hook`;

/** Writes the project's `.claude/settings.json` with `askdock hook` on `events` (docs/agents.md "Claude Code: the permission hook"). */
export function writeHookSettings(projectDir: string, events: string[] = ['PermissionRequest']): void {
  const hooks = Object.fromEntries(events.map((e) => [e, [{ matcher: '*', hooks: [{ type: 'command', command: HOOK_COMMAND, timeout: 150 }] }]]));
  mkdirSync(join(projectDir, '.claude'), { recursive: true });
  writeFileSync(join(projectDir, '.claude', 'settings.json'), JSON.stringify({ hooks }, null, 2));
}

/**
 * `~/.claude.json` of a first run that has seen every first-run screen: onboarding and theme done (else it checks
 * api.anthropic.com and exits), the environment's API key approved, and the project folder trusted.
 */
export function seedClaudeHome(home: string, projectDir: string): void {
  const config = {
    hasCompletedOnboarding: true,
    theme: 'dark',
    customApiKeyResponses: { approved: [API_KEY.slice(-20)], rejected: [] },
    projects: { [realpathSync(projectDir)]: { hasTrustDialogAccepted: true } },
  };
  writeFileSync(join(home, '.claude.json'), JSON.stringify(config, null, 2));
}

export type ClaudeCode = {
  /** The terminal as a person sees it now. */
  screen(): string;
  /** Keys as tmux names them (`Enter`, `Escape`, `Down`). */
  sendKeys(keys: string[]): void;
  /** Polls the screen until `text` shows. */
  waitForScreen(text: string | RegExp, timeoutMs?: number): Promise<string>;
  /** Types a prompt and submits it; resolves once the fake API has the conversation request it starts. */
  prompt(text: string): Promise<void>;
  /** Exits the CLI, ends the tmux server (and any hook still running) and removes HOME. */
  stop(): Promise<void>;
};

export type StartClaudeCode = { projectDir: string; gatewayUrl: string; token: string; fakeApi: FakeModelApi; env?: Record<string, string>; readyTimeoutMs?: number };

/** Removes `dir`, retrying while a process that is still ending writes into it. */
async function removeWhenIdle(dir: string, timeoutMs = 30_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    try {
      rmSync(dir, { recursive: true, force: true });
      return;
    } catch (err) {
      if (Date.now() > end) throw err;
      await new Promise((r) => setTimeout(r, 250));
    }
  }
}

/** Starts `claude` in `projectDir`, with the hook's gateway and token in its environment; resolves once its prompt shows. */
export async function startClaudeCode(opts: StartClaudeCode): Promise<ClaudeCode> {
  const home = mkdtempSync(join(tmpdir(), 'askdock-claude-home-'));
  seedClaudeHome(home, opts.projectDir);
  // A clean environment (env -i): nothing of the runner's own Claude Code or askdock setup leaks in.
  const env = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    TERM: 'xterm-256color',
    LANG: 'C.UTF-8',
    ANTHROPIC_BASE_URL: opts.fakeApi.url,
    ANTHROPIC_API_KEY: API_KEY,
    // No telemetry, error reports, release notes or update checks: the fake is the only host it talks to.
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_AUTOUPDATER: '1',
    ASKDOCK_URL: opts.gatewayUrl,
    ASKDOCK_TOKEN: opts.token,
    ...opts.env,
  };
  const screen = TmuxScreen.start(['env', '-i', ...Object.entries(env).map(([k, v]) => `${k}=${v}`), CLAUDE_BIN], { cwd: opts.projectDir });
  const stop = async () => {
    // Ctrl-C (twice at an idle prompt) is how a person leaves Claude Code; it finishes its writes to HOME as it exits.
    const end = Date.now() + 30_000;
    while (Date.now() < end) {
      const now = screen.capture();
      if (now === '' || now.includes('TUI EXITED')) break;
      screen.send(['C-c']);
      await new Promise((r) => setTimeout(r, 500));
    }
    screen.kill();
    await removeWhenIdle(home);
  };
  const waitForScreen = (text: string | RegExp, timeoutMs = 90_000) => screen.waitFor(text, timeoutMs);
  try {
    await waitForScreen('? for shortcuts', opts.readyTimeoutMs ?? 90_000);
  } catch (err) {
    await stop();
    throw err;
  }
  return {
    screen: () => screen.capture(),
    sendKeys: (keys) => screen.send(keys),
    waitForScreen,
    async prompt(text) {
      const before = opts.fakeApi.conversationRequests().length;
      screen.type(text);
      // The prompt line shows what was typed (after a no-break space) before Enter submits it.
      await waitForScreen(new RegExp(`❯\\s${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
      screen.send(['Enter']);
      const end = Date.now() + 90_000;
      while (opts.fakeApi.conversationRequests().length === before) {
        if (Date.now() > end) throw new Error(`the prompt "${text}" sent no request to the fake model API; the screen:\n${screen.capture()}`);
        await new Promise((r) => setTimeout(r, 200));
      }
    },
    stop,
  };
}

/** One `claude` run in a fresh project folder with the hook wired, and the fake model it talks to. */
export type ClaudeRun = { dir: string; api: FakeModelApi; claude: ClaudeCode; stop(): Promise<void> };

/** Creates a project folder holding `files`, wires `askdock hook`, starts a fake model and `claude` at its prompt. */
export async function startClaudeRun(opts: { gatewayUrl: string; token: string; files?: Record<string, string> }): Promise<ClaudeRun> {
  const dir = mkdtempSync(join(tmpdir(), 'askdock-claude-project-'));
  for (const [name, body] of Object.entries(opts.files ?? {})) writeFileSync(join(dir, name), body);
  writeHookSettings(dir);
  const api = await startFakeModelApi();
  let claude: ClaudeCode;
  try {
    claude = await startClaudeCode({ projectDir: dir, gatewayUrl: opts.gatewayUrl, token: opts.token, fakeApi: api });
  } catch (err) {
    await api.close();
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  return {
    dir,
    api,
    claude,
    async stop() {
      await claude.stop();
      await api.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
