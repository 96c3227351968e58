/** A test file of real Claude Code runs: one gateway for the file, one `claude` run per test, ended after each. */
import { afterAll, afterEach, beforeAll } from 'vitest';
import type { GatewayConfig } from '../gateway/config.ts';
import type { EventPayload } from '../protocol/index.ts';
import { nextEvent, startTestGateway, type TestGateway } from './agent-harness.ts';
import { startClaudeRun, type ClaudeRun } from './claude-code.ts';

export type ClaudeCodeSuite = {
  /** The file's gateway (set once its beforeAll ran). */
  readonly t: TestGateway;
  /** The test's run, if it started one. */
  readonly run: ClaudeRun | undefined;
  /** Starts the test's run in a fresh project folder holding `files`. */
  start(files?: Record<string, string>): Promise<ClaudeRun>;
  /** Submits `prompt` to the run; resolves with the approval question it leads to, as the operator sees it. */
  askedAfter(prompt: string): Promise<EventPayload<'question.requested'>['question']>;
};

/** Registers the hooks; `onGateway` sees the gateway as soon as it runs (to listen from the first event on). */
export function claudeCodeSuite(opts: { config?: GatewayConfig; onGateway?: (t: TestGateway) => void } = {}): ClaudeCodeSuite {
  let gateway: TestGateway | undefined;
  let current: ClaudeRun | undefined;
  beforeAll(async () => {
    gateway = await startTestGateway(opts.config ? { config: opts.config } : {});
    opts.onGateway?.(gateway);
  }, 60_000);
  afterAll(async () => {
    await gateway?.close();
  });
  afterEach(async () => {
    await current?.stop();
    current = undefined;
  }, 60_000);
  return {
    get t() {
      if (!gateway) throw new Error('the gateway is not started yet (use it inside a test)');
      return gateway;
    },
    get run() {
      return current;
    },
    async start(files = {}) {
      current = await startClaudeRun({ gatewayUrl: this.t.url, token: this.t.agentToken, files });
      return current;
    },
    async askedAfter(prompt) {
      if (!current) throw new Error('no claude run: start one first');
      // Generous: Claude Code starts the hook, which may compile the CLI's sources before it connects.
      const requested = nextEvent(this.t.operator, 'question.requested', () => true, 120_000);
      // Awaited below; a failed prompt must not leave it rejecting unheard.
      requested.catch(() => undefined);
      await current.claude.prompt(prompt);
      return (await requested).question;
    },
  };
}
