/**
 * The real Claude Code CLI, its model played by a loopback fake, with `askdock hook` on PermissionRequest and a gateway
 * with an approval policy (G4, G6, G5): an allowed command runs with nobody asked, a denied one never runs and the model
 * reads the rule's reason, an unmatched one asks, and "Always allow in this session" lets the same command through
 * until the grant is revoked. Each case is one `claude` run in a fresh project folder.
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { testConfig } from '../testing/gateway-harness.ts';
import { toolResultText, type ContentBlock } from '../testing/fake-model-api.ts';
import { claudeCodeSuite } from '../testing/claude-code-suite.ts';
import type { GatewayConfig } from '../gateway/config.ts';
import type { EventPayload } from '../protocol/index.ts';

const KEEP_REASON = 'files in this project are kept: move them to old/ instead';

const config: GatewayConfig = {
  ...testConfig,
  approvals: {
    rules: [
      { id: 'touch-ok', rule: 'Bash(touch *)', decision: 'allow' },
      { id: 'no-rm', rule: 'Bash(rm *)', decision: 'deny', reason: KEEP_REASON },
    ],
    unmatched: 'ask',
  },
};

type Question = EventPayload<'question.requested'>['question'];

describe('Claude Code through askdock hook and the approval policy', { timeout: 400_000 }, () => {
  /** Every question any operator client was shown, from the gateway's start. */
  const asked: Question[] = [];
  const suite = claudeCodeSuite({ config, onGateway: (t) => void t.operator.on('question.requested', (p) => void asked.push(p.question)) });
  const start = (files: Record<string, string> = {}) => suite.start(files);
  const askedAfter = (prompt: string) => suite.askedAfter(prompt);
  const admin = () => suite.t.operator;

  const bash = (command: string) => ({ toolUse: { name: 'Bash', input: { command, description: 'Work on files' } } });

  /** The next tool_result the model reads that it has not read before (each names the tool call it answers). */
  function newToolResult(seen: Set<string>) {
    return suite.run!.api.waitForToolResult((r: ContentBlock) => r.tool_use_id !== undefined && !seen.has(r.tool_use_id), 120_000).then(
      (r) => {
        seen.add(r.tool_use_id!);
        return r;
      },
      (err: Error) => {
        // What the person at the terminal and the operator saw says where it stopped.
        throw new Error(`${err.message}\nquestions asked: ${JSON.stringify(asked.map((q) => q.questions[0].question))}\nthe screen:\n${suite.run?.claude.screen()}`);
      },
    );
  }

  /** The askdock session of this run: the hook titles it `Claude Code · <folder> · …`. */
  async function runSession(dir: string) {
    const { sessions } = await admin().request('sessions.list', {});
    const mine = sessions.filter((s) => s.title.startsWith(`Claude Code · ${basename(dir)}`));
    expect(mine).toHaveLength(1);
    return mine[0].key;
  }

  async function systemLines(sessionKey: string) {
    const { messages } = await admin().request('chat.history', { sessionKey });
    return messages.filter((m) => m.role === 'system').map((m) => m.text);
  }

  it('[G4][G6] a command a rule allows runs with nobody asked, and the run\'s session gets the notice naming the rule', async () => {
    const { dir, api, claude } = await start();
    const before = asked.length;
    api.reply(bash('touch made.txt'), { text: 'Finished.' });
    await claude.prompt('make the file');
    const result = await newToolResult(new Set());
    expect(result.is_error ?? false).toBe(false);
    expect(existsSync(join(dir, 'made.txt'))).toBe(true);
    expect(asked.length).toBe(before);
    const lines = await systemLines(await runSession(dir));
    expect(lines).toEqual(['✓ Allowed Bash(touch made.txt) · rule touch-ok']);
  });

  it('[G4][G6] a command a rule denies never runs: the model reads the rule\'s reason, the session the notice', async () => {
    const { dir, api, claude } = await start({ 'keep.txt': 'precious\n' });
    const before = asked.length;
    api.reply(bash('rm keep.txt'), { text: 'Finished.' });
    await claude.prompt('remove the file');
    const result = await newToolResult(new Set());
    expect(result.is_error).toBe(true);
    expect(toolResultText(result)).toContain(KEEP_REASON);
    expect(readFileSync(join(dir, 'keep.txt'), 'utf8')).toBe('precious\n');
    expect(asked.length).toBe(before);
    expect(await systemLines(await runSession(dir))).toEqual(['✕ Denied Bash(rm keep.txt) · rule no-rm']);
  });

  it('[G4][G5][G12] an unmatched command asks; "Always allow in this session" lets the same command pass unasked until the grant is revoked', async () => {
    const command = 'cp notes.txt copy.txt';
    const { dir, api, claude } = await start({ 'notes.txt': 'note\n' });
    const seen = new Set<string>();

    // 1. No rule matches: the operator is asked, and answers with the session grant the question offers.
    api.reply(bash(command));
    const question = await askedAfter('copy the notes');
    const item = question.questions[0];
    // X2: the question is `Allow <tool> <what>?`; why the policy asks is Allow's description.
    expect(item.question).toBe(`Allow Bash ${command}?`);
    expect(item.options[0]).toEqual({ label: 'Allow', description: 'This request only. Asked because no rule matched.' });
    expect(item.options.map((o) => o.label)).toContain('Always allow in this session');
    await admin().request('question.resolve', { id: question.id, answers: { [item.id]: ['Always allow in this session'] } });
    expect((await newToolResult(seen)).is_error ?? false).toBe(false);
    const copy = join(dir, 'copy.txt');
    expect(readFileSync(copy, 'utf8')).toBe('note\n');
    // Removed after each run, so the file shows whether the next one ran.
    rmSync(copy);
    const { grants } = await admin().request('policy.get', {});
    expect(grants).toHaveLength(1);
    const [grant] = grants;
    expect(grant).toMatchObject({ scope: 'session', sessionKey: question.sessionKey, questionId: question.id });

    // 2. The same command again in the same run: the grant answers, nobody is asked, the session says which grant.
    const askedBefore = asked.length;
    api.reply(bash(command));
    await claude.prompt('copy them again');
    expect((await newToolResult(seen)).is_error ?? false).toBe(false);
    expect(readFileSync(copy, 'utf8')).toBe('note\n');
    rmSync(copy);
    expect(asked.length).toBe(askedBefore);
    expect(await systemLines(question.sessionKey!)).toContain(`✓ Allowed Bash(${command}) · grant ${grant.id}`);

    // 3. Revoked (what the Rules page does): the same command asks again, and the answer decides.
    expect(await admin().request('policy.grant.revoke', { id: grant.id })).toEqual({ revoked: true });
    api.reply(bash(command));
    const third = await askedAfter('and once more');
    expect(third.sessionKey).toBe(question.sessionKey);
    await admin().request('question.resolve', { id: third.id, answers: { [third.questions[0].id]: ['Deny'] } });
    const denied = await newToolResult(seen);
    expect(denied.is_error).toBe(true);
    expect(toolResultText(denied)).toContain('The person denied this in askdock.');
    expect(existsSync(copy)).toBe(false);
  });

  it('[G7][G3] a piped command Claude Code suggests a rule for only in part offers no "Always allow" (its grant would ask again); Allow runs it once', async () => {
    const { dir, api } = await start();
    api.reply(bash('echo hi | tee -a log.txt'), { text: 'Finished.' });
    const question = await askedAfter('log it');
    expect(question.questions[0].options.map((o) => o.label)).toEqual(['Allow', 'Deny']);
    await admin().request('question.resolve', { id: question.id, answers: { [question.questions[0].id]: ['Allow'] } });
    expect((await newToolResult(new Set())).is_error ?? false).toBe(false);
    expect(readFileSync(join(dir, 'log.txt'), 'utf8')).toBe('hi\n');
  });
});
