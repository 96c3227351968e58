/**
 * The real Claude Code CLI, its model played by a loopback fake, with `askdock hook` wired for PermissionRequest in
 * the project's `.claude/settings.json`: an approval reaches the operator as a question, and the answer decides
 * whether the command runs (what the model reads back in the next request's tool_result).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { toolResultText } from '../testing/fake-model-api.ts';
import { claudeCodeSuite } from '../testing/claude-code-suite.ts';

// `echo` alone is read-only, which Claude Code runs without asking; writing a file needs an approval.
const COMMAND = 'echo hi-from-test | tee ran.txt';

describe('Claude Code with askdock hook as its PermissionRequest hook', { timeout: 300_000 }, () => {
  const suite = claudeCodeSuite();

  /** Claude Code asks for COMMAND in a fresh project; resolves with the approval question as the operator sees it. */
  async function approvalAsked() {
    const run = await suite.start();
    run.api.reply({ toolUse: { name: 'Bash', input: { command: COMMAND, description: 'Greet' } } }, { text: 'Finished.' });
    return await suite.askedAfter('greet me');
  }

  /** The operator picks `label` among the approval's options, as a person would in the dock. */
  async function choose(question: Awaited<ReturnType<typeof approvalAsked>>, label: string) {
    const item = question.questions[0];
    expect(item.options.map((o) => o.label)).toContain(label);
    await suite.t.operator.request('question.resolve', { id: question.id, answers: { [item.id]: [label] } });
  }

  it('[X1][X2] a Bash approval of the real CLI reaches the operator; Allow runs the command and the model reads its output', async () => {
    const question = await approvalAsked();
    // The gateway's approval question (G11): the command named in the question, and shown whole (with its folder) as its detail.
    expect(question.questions[0]).toMatchObject({ kind: 'approval', header: 'Bash', detail: `${COMMAND}\n\nin ${suite.run!.dir}` });
    expect(question.questions[0].question).toContain(`Allow Bash ${COMMAND}?`);
    await choose(question, 'Allow');
    const result = await suite.run!.api.waitForToolResult(() => true);
    expect(result.is_error ?? false).toBe(false);
    expect(toolResultText(result)).toContain('hi-from-test');
    expect(readFileSync(join(suite.run!.dir, 'ran.txt'), 'utf8')).toBe('hi-from-test\n');
  });

  it('[X1][X2] Deny: the model reads that the person denied it, and the command never ran', async () => {
    const question = await approvalAsked();
    await choose(question, 'Deny');
    const result = await suite.run!.api.waitForToolResult(() => true);
    expect(result.is_error).toBe(true);
    expect(toolResultText(result)).toMatch(/denied/i);
    expect(toolResultText(result)).not.toContain('hi-from-test');
    expect(existsSync(join(suite.run!.dir, 'ran.txt'))).toBe(false);
  });
});
