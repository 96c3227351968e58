import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nextEvent, startTestGateway, type TestGateway } from '../testing/agent-harness.ts';
import { testConfig } from '../testing/gateway-harness.ts';
import { hookAsks, hookFixture, startHook } from '../testing/hook-process.ts';
import type { EventPayload } from '../protocol/index.ts';

const APPROVALS = {
  rules: [
    { id: 'npm-tests', rule: 'Bash(npm run test *)', decision: 'allow' },
    { id: 'no-push-main', rule: 'Bash(git push origin main)', decision: 'deny', reason: 'main is protected: open a pull request' },
    { id: 'git', rule: 'Bash(git *)', decision: 'allow' },
    { id: 'codex-no-publish', rule: 'Bash(npm publish *)', decision: 'deny', agents: ['codex'], reason: 'releases go through CI' },
    { id: 'docs', rule: 'Edit(docs/**)', decision: 'allow' },
    { id: 'no-secrets', rule: 'Edit(secrets/**)', decision: 'deny', reason: 'secrets are edited by hand' },
  ],
  unmatched: 'ask',
};

/** A Claude Code PermissionRequest for Bash running `command` (the fixture's event, its suggestion for that command). */
const claudeBash = (command: string, sessionId = 'policy-run') => {
  const e = JSON.parse(hookFixture('claude-bash'));
  return JSON.stringify({ ...e, session_id: sessionId, tool_input: { command }, permission_suggestions: [{ type: 'addRules', rules: [{ toolName: 'Bash', ruleContent: command }], behavior: 'allow', destination: 'localSettings' }] });
};
const codexBash = (command: string) => JSON.stringify({ ...JSON.parse(hookFixture('codex-bash')), tool_input: { command } });
/** Codex's PreToolUse for apply_patch: the patch body as tool_input.command. */
const codexPatch = (...files: string[]) =>
  JSON.stringify({
    ...JSON.parse(hookFixture('codex-bash')),
    hook_event_name: 'PreToolUse',
    tool_name: 'apply_patch',
    tool_input: { command: ['*** Begin Patch', ...files.flatMap((f) => [`*** Add File: ${f}`, '+hello']), '*** End Patch', ''].join('\n') },
  });

describe('askdock hook through the approval policy (G4)', { timeout: 120_000 }, () => {
  let t: TestGateway;
  const asked: EventPayload<'question.requested'>['question'][] = [];
  beforeAll(async () => {
    t = await startTestGateway({ config: { ...testConfig, approvals: APPROVALS } as never });
    t.operator.on('question.requested', (p) => asked.push(p.question));
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  /** Runs the hook on `event` that the policy decides at once: its output, and that nobody was asked. */
  async function decidedAtOnce(event: string) {
    const before = asked.length;
    // A request wrongly asked ends within the shortest timeout rather than the default two minutes.
    const out = await startHook(t, event, ['--timeout', '30']).done;
    expect(out.code).toBe(0);
    expect(asked.length).toBe(before);
    return { ...out, json: JSON.parse(out.stdout) };
  }

  it('[G4] Claude Code: an allowed command is answered allow with no question shown', async () => {
    const { json, stderr } = await decidedAtOnce(claudeBash('npm run test -- --run'));
    expect(json).toEqual({ hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'allow' } } });
    expect(stderr).not.toContain('waiting for an answer');
  });

  it('[G4][G2] Claude Code: a denied command is answered deny with the rule\'s reason, though another rule allows it', async () => {
    const { json } = await decidedAtOnce(claudeBash('git push origin main'));
    expect(json).toEqual({ hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'deny', message: 'main is protected: open a pull request' } } });
  });

  it('[G4] an unmatched command asks a person, and the person\'s answer decides', async () => {
    const requested = nextEvent(t.operator, 'question.requested');
    const hook = startHook(t, claudeBash('curl https://example.com', 'ask-run'));
    const question = await hookAsks(t.operator, hook, requested);
    expect(question.questions[0].kind).toBe('approval');
    await t.operator.request('question.resolve', { id: question.id, answers: { approval: ['Deny'] } });
    const out = await hook.done;
    expect(JSON.parse(out.stdout).hookSpecificOutput.decision).toEqual({ behavior: 'deny', message: 'The person denied this in askdock.' });
  });

  it('[G4][G5] "Always allow in this session", then the same command passes by the grant with nobody asked', async () => {
    const command = 'docker compose up -d';
    const requested = nextEvent(t.operator, 'question.requested');
    const hook = startHook(t, claudeBash(command, 'grant-run'));
    const question = await hookAsks(t.operator, hook, requested);
    expect(question.questions[0].options.map((o) => o.label)).toContain('Always allow in this session');
    await t.operator.request('question.resolve', { id: question.id, answers: { approval: ['Always allow in this session'] } });
    expect(JSON.parse((await hook.done).stdout).hookSpecificOutput.decision).toEqual({ behavior: 'allow' });
    const again = await decidedAtOnce(claudeBash(command, 'grant-run'));
    expect(again.json.hookSpecificOutput.decision).toEqual({ behavior: 'allow' });
    // Another session has no such grant: it is asked.
    const other = nextEvent(t.operator, 'question.requested');
    const elsewhere = startHook(t, claudeBash(command, 'other-run'));
    const q2 = await hookAsks(t.operator, elsewhere, other);
    await t.operator.request('question.resolve', { id: q2.id, skip: true });
    expect((await elsewhere.done).stdout).toBe('');
  });

  it('[G4] Codex: its shell tool is judged as Bash: an allowed command is allowed at once, a denied one denied with the rule\'s reason', async () => {
    const allowed = await decidedAtOnce(codexBash('git status'));
    expect(allowed.json).toEqual({ hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'allow' } } });
    const denied = await decidedAtOnce(codexBash('git push origin main'));
    expect(denied.json).toEqual({ hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'deny', message: 'main is protected: open a pull request' } } });
  });

  it('[G4][G1] a rule for agent codex binds Codex\'s hook and not Claude Code\'s (the approval names its agent)', async () => {
    const codex = await decidedAtOnce(codexBash('npm publish --tag next'));
    expect(codex.json).toEqual({ hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'deny', message: 'releases go through CI' } } });
    const requested = nextEvent(t.operator, 'question.requested');
    const claude = startHook(t, claudeBash('npm publish --tag next', 'claude-publish'));
    const question = await hookAsks(t.operator, claude, requested);
    await t.operator.request('question.resolve', { id: question.id, answers: { approval: ['Allow'] } });
    expect(JSON.parse((await claude.done).stdout).hookSpecificOutput.decision).toEqual({ behavior: 'allow' });
  });

  it('[E8] Codex: a patch a person allows tells the agent who approved it, in the text the agent reads (additionalContext)', async () => {
    const requested = nextEvent(t.operator, 'question.requested');
    const hook = startHook(t, codexPatch('src/a.ts'));
    const question = await hookAsks(t.operator, hook, requested);
    await t.operator.request('question.resolve', { id: question.id, answers: { approval: ['Allow'] } });
    const { stdout } = await hook.done;
    expect(JSON.parse(stdout)).toEqual({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow', additionalContext: 'approved by admin' } });
  });

  it('[G4] Codex: apply_patch is judged as Edit of every file it patches; one denied file denies the patch', async () => {
    const docs = await decidedAtOnce(codexPatch('docs/a.md', 'docs/b.md'));
    expect(docs.json).toEqual({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow' } });
    const secret = await decidedAtOnce(codexPatch('docs/a.md', 'secrets/key.txt'));
    expect(secret.json).toEqual({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'secrets are edited by hand' } });
  });
});
