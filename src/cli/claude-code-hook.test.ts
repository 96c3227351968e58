/**
 * The real Claude Code CLI, its model played by a loopback fake, with `askdock hook` wired for PermissionRequest in
 * the project's `.claude/settings.json`: an approval reaches the operator as a question, and the answer decides
 * whether the command runs (what the model reads back in the next request's tool_result).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { nextEvent, startTestGateway, type TestGateway } from '../testing/agent-harness.ts';
import { startFakeModelApi, toolResultText, type FakeModelApi } from '../testing/fake-model-api.ts';
import { startClaudeCode, writeHookSettings, type ClaudeCode } from '../testing/claude-code.ts';

// `echo` alone is read-only, which Claude Code runs without asking; writing a file needs an approval.
const COMMAND = 'echo hi-from-test | tee ran.txt';

describe('Claude Code with askdock hook as its PermissionRequest hook', { timeout: 300_000 }, () => {
  let t: TestGateway;
  let api: FakeModelApi | undefined;
  let claude: ClaudeCode | undefined;
  let projectDir: string | undefined;
  beforeAll(async () => {
    t = await startTestGateway();
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });
  afterEach(async () => {
    await claude?.stop();
    await api?.close();
    if (projectDir) rmSync(projectDir, { recursive: true, force: true });
    claude = api = projectDir = undefined;
  });

  /** Claude Code asks for COMMAND in a fresh project; resolves with the approval question as the operator sees it. */
  async function approvalAsked() {
    projectDir = mkdtempSync(join(tmpdir(), 'askdock-claude-project-'));
    writeHookSettings(projectDir);
    api = await startFakeModelApi();
    api.reply({ toolUse: { name: 'Bash', input: { command: COMMAND, description: 'Greet' } } }, { text: 'Finished.' });
    claude = await startClaudeCode({ projectDir, gatewayUrl: t.url, token: t.agentToken, fakeApi: api });
    // Generous: Claude Code starts the hook, which may compile the CLI's sources before it connects.
    const requested = nextEvent(t.operator, 'question.requested', () => true, 120_000);
    // Awaited below; a failed prompt must not leave it rejecting unheard.
    requested.catch(() => undefined);
    await claude.prompt('greet me');
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
    expect(question.questions[0].header).toBe('Bash');
    expect(question.questions[0].question).toContain(COMMAND);
    await choose(question, 'Allow');
    const result = await api!.waitForToolResult(() => true);
    expect(result.is_error ?? false).toBe(false);
    expect(toolResultText(result)).toContain('hi-from-test');
    expect(readFileSync(join(projectDir!, 'ran.txt'), 'utf8')).toBe('hi-from-test\n');
  });

  it('[X1][X2] Deny: the model reads that the person denied it, and the command never ran', async () => {
    const question = await approvalAsked();
    await choose(question, 'Deny');
    const result = await api!.waitForToolResult(() => true);
    expect(result.is_error).toBe(true);
    expect(toolResultText(result)).toMatch(/denied/i);
    expect(toolResultText(result)).not.toContain('hi-from-test');
    expect(existsSync(join(projectDir!, 'ran.txt'))).toBe(false);
  });
});
