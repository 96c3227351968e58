import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GatewayClient } from '../client/client.ts';
import { createNodeClient } from '../client/node.ts';
import { eventually, startTestGateway, type TestGateway } from '../testing/agent-harness.ts';
import { BIN, TmuxScreen } from '../testing/tmux.ts';

const ESC = '\u001b';
const BEL = '\u0007';
/**
 * A window title (OSC 0), a clipboard write (OSC 52), a hidden link (OSC 8), a colour no screen of the TUI uses
 * (CSI 256-colour) and a right-to-left override, tagged so each field's copy can be found. 57 characters: fits a label.
 */
const injected = (tag: string) => `${tag}${ESC}]0;P${tag}${BEL}${ESC}]52;c;QQ==${BEL}${ESC}]8;;http://e.t${BEL}L${ESC}]8;;${BEL}${ESC}[38;5;201mR\u202Ev`;
/** What the person sees instead: each control as U+FFFD, the override as its escape. */
const shown = (tag: string) => `${tag}\uFFFD]0;P${tag}\uFFFD\uFFFD]52;c;QQ==\uFFFD\uFFFD]8;;http://e.t\uFFFDL\uFFFD]8;;\uFFFD\uFFFD[38;5;201mR\\u202Ev`;
/** A header holds 12 characters: a title, a blink (no screen of the TUI blinks) and the override. */
const HEADER = `${ESC}]0;PH${BEL}${ESC}[5m\u202E`;

describe('what reaches the terminal from askdock tui', { timeout: 120_000 }, () => {
  let t: TestGateway;
  let agent: GatewayClient;
  let dir: string;
  let screen: TmuxScreen | undefined;
  beforeAll(async () => {
    t = await startTestGateway();
    agent = createNodeClient({ url: t.url, token: t.agentToken, client: { name: 'test-agent', mode: 'agent' } });
    await agent.start();
    dir = mkdtempSync(join(tmpdir(), 'askdock-tui-bytes-'));
  });
  afterAll(async () => {
    screen?.kill();
    agent.close();
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const open = async (sessionKey: string) => {
    screen?.kill();
    screen = TmuxScreen.start(['node', BIN, 'tui', '--url', t.url, '--token', t.operatorToken, '--session', sessionKey], { cwd: dir });
    await screen.waitFor('Connected', 60_000);
    return screen;
  };

  it('[V1][V2] a session title, a message, a header, a question, option labels and a description reach the pty with no sequence in them, shown visibly', async () => {
    const { session } = await t.operator.request('sessions.create', {});
    const tui = await open(session.key);
    const bytes = join(dir, 'pty-bytes');
    tui.record(bytes);
    // Every field arrives after the recording started, so its drawing is in the file.
    await t.operator.request('sessions.update', { sessionKey: session.key, title: injected('T') });
    await t.operator.request('chat.send', { sessionKey: session.key, message: injected('M'), idempotencyKey: 'evil-message' });
    await agent.request('question.request', {
      sessionKey: session.key,
      questions: [{ id: 'pick', header: HEADER, question: injected('Q'), options: [{ label: injected('A'), description: injected('D') }, { label: injected('B') }] }],
    });
    const tags = ['T', 'M', 'Q', 'A', 'D', 'B', 'H'];
    // Each field drawn at least once, in whatever form it reached the terminal.
    const raw = await eventually(() => {
      const text = existsSync(bytes) ? readFileSync(bytes, 'utf8') : '';
      return tags.every((tag) => text.includes(`]0;P${tag}`)) ? text : undefined;
    }, 60_000, 100);
    for (const sequence of [`${ESC}]0;`, `${ESC}]52;`, `${ESC}]8;`, `${ESC}[38;5;201m`, `${ESC}[5m`, BEL, '\u202E']) {
      expect(raw.includes(sequence), `${JSON.stringify(sequence)} reached the terminal`).toBe(false);
    }
    for (const tag of ['T', 'M', 'Q', 'A', 'D', 'B']) expect(raw).toContain(shown(tag));
    expect(raw).toContain('\uFFFD]0;PH\uFFFD\uFFFD[5m\\u202E');
    const visible = tui.capture();
    expect(visible).toContain('\\u202Ev');
    expect(visible).toContain('Q\uFFFD]0;PQ\uFFFD');
  });
});
