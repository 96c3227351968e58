/**
 * The real Claude Code CLI, its model played by a loopback fake, with `askdock hook` wired for PermissionRequest in
 * the project's `.claude/settings.json`: an approval reaches the operator as a question, and the answer decides
 * whether the command runs (what the model reads back in the next request's tool_result).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { nextEvent, startTestGateway, type TestGateway } from '../testing/agent-harness.ts';
import { toolResultText } from '../testing/fake-model-api.ts';
import { startClaudeRun, type ClaudeRun } from '../testing/claude-code.ts';

// `echo` alone is read-only, which Claude Code runs without asking; writing a file needs an approval.
const COMMAND = 'echo hi-from-test | tee ran.txt';

describe('Claude Code with askdock hook as its PermissionRequest hook', { timeout: 300_000 }, () => {
  let t: TestGateway;
  let run: ClaudeRun | undefined;
  beforeAll(async () => {
    t = await startTestGateway();
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });
  afterEach(async () => {
    await run?.stop();
    run = undefined;
  }, 60_000);

  /** Claude Code asks for COMMAND in a fresh project; resolves with the approval question as the operator sees it. */
  async function approvalAsked() {
    run = await startClaudeRun({ gatewayUrl: t.url, token: t.agentToken });
    run.api.reply({ toolUse: { name: 'Bash', input: { command: COMMAND, description: 'Greet' } } }, { text: 'Finished.' });
    // Generous: Claude Code starts the hook, which may compile the CLI's sources before it connects.
    const requested = nextEvent(t.operator, 'question.requested', () => true, 120_000);
    // Awaited below; a failed prompt must not leave it rejecting unheard.
    requested.catch(() => undefined);
    await run.claude.prompt('greet me');
    const { question } = await requested;
    return question;
  }

  /** The operator picks `label` among the approval's options, as a person would in the dock. */
  async function choose(question: Awaited<ReturnType<typeof approvalAsked>>, label: string) {
    const item = question.questions[0];
    expect(item.options.map((o) => o.label)).toContain(label);
    await t.operator.request('question.resolve', { id: question.id, answers: { [item.id]: [label] } });
  }

  it('[X1][X2] a Bash approval of the real CLI reaches the operator; Allow runs the command and the model reads its output', async () => {
    const question = await approvalAsked();
    // The gateway's approval question (G11): the command named in the question, and shown whole (with its folder) as its detail.
    expect(question.questions[0]).toMatchObject({ kind: 'approval', header: 'Approval', detail: `${COMMAND}\n\nin ${run!.dir}` });
    expect(question.questions[0].question).toContain(`Bash(${COMMAND})`);
    await choose(question, 'Allow');
    const result = await run!.api.waitForToolResult(() => true);
    expect(result.is_error ?? false).toBe(false);
    expect(toolResultText(result)).toContain('hi-from-test');
    expect(readFileSync(join(run!.dir, 'ran.txt'), 'utf8')).toBe('hi-from-test\n');
  });

  it('[X1][X2] Deny: the model reads that the person denied it, and the command never ran', async () => {
    const question = await approvalAsked();
    await choose(question, 'Deny');
    const result = await run!.api.waitForToolResult(() => true);
    expect(result.is_error).toBe(true);
    expect(toolResultText(result)).toMatch(/denied/i);
    expect(toolResultText(result)).not.toContain('hi-from-test');
    expect(existsSync(join(run!.dir, 'ran.txt'))).toBe(false);
  });
});
