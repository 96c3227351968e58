import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nextEvent, startTestGateway, type TestGateway } from '../testing/agent-harness.ts';
import { testConfig, tokenOf } from '../testing/gateway-harness.ts';
import { runAskdock } from '../testing/hook-process.ts';
import { connect, type Agent } from '../agent/sdk.ts';
import { requestApproval } from '../agent/approval-request.ts';

const APPROVALS = { rules: [{ id: 'no-push-main', rule: 'Bash(git push origin main)', decision: 'deny' }, { id: 'git', rule: 'Bash(git *)', decision: 'allow' }], unmatched: 'ask' };

describe('askdock policy check, grants and revoke against a running gateway (G5, G9, G12)', { timeout: 120_000 }, () => {
  let t: TestGateway;
  let agent: Agent;
  const askdock = (token: string, ...args: string[]) => runAskdock([...args], { cwd: t.dir, env: { ASKDOCK_URL: t.url, ASKDOCK_TOKEN: token } });
  beforeAll(async () => {
    t = await startTestGateway({ config: { ...testConfig, approvals: APPROVALS } as never });
    agent = await connect({ url: t.url, token: t.agentToken, mode: 'agent' });
  }, 60_000);
  afterAll(async () => {
    agent?.close();
    await t?.close();
  });

  it('[G9] without --config it asks the running gateway: the decision and every matching rule', async () => {
    const out = await askdock(t.agentToken, 'policy', 'check', '--json', '--', 'Bash(git push origin main)');
    expect(out.code).toBe(0);
    const result = JSON.parse(out.stdout);
    expect(result.decision).toBe('deny');
    expect(result.matchedRules.map((r: { id: string }) => r.id).sort()).toEqual(['git', 'no-push-main']);
    const human = await askdock(t.agentToken, 'policy', 'check', '--', 'Bash(git status)');
    expect(human.stdout.split('\n')[0]).toBe('Bash(git status): allow');
  });

  it('[G9][G12] --agent against a gateway: an admin checks for any agent; an agent\'s token for another agent is refused', async () => {
    const admin = await askdock(t.operatorToken, 'policy', 'check', '--agent', 'codex', '--json', '--', 'Bash(git status)');
    expect(admin.code).toBe(0);
    expect(JSON.parse(admin.stdout).decision).toBe('allow');
    const refused = await askdock(t.agentToken, 'policy', 'check', '--agent', 'someone-else', '--', 'Bash(git status)');
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toContain('(FORBIDDEN)');
  });

  it('[G9] no gateway there: exit 1 saying so', async () => {
    const out = await runAskdock(['policy', 'check', '--url', 'ws://127.0.0.1:9', '--token', t.agentToken, '--', 'Bash(ls)'], { cwd: t.dir });
    expect(out.code).toBe(1);
    expect(out.stderr).toMatch(/^askdock policy check: /);
  });

  it('[G5][G12] a grant made by "Always allow in this session" is listed by policy grants and ended by policy revoke; an operator without operator.admin may not list them', async () => {
    const { key: sessionKey } = await agent.createSession({ title: 'grants' });
    const requested = nextEvent(t.operator, 'question.requested');
    const decided = requestApproval(agent, { tool: 'Bash', input: { command: 'make deploy' }, agent: 'sdk', suggestions: ['Bash(make deploy)'] }, { sessionKey, timeoutSeconds: 120 });
    const { question } = await requested;
    await t.operator.request('question.resolve', { id: question.id, answers: { approval: ['Always allow in this session'] } });
    expect((await decided).decision).toMatchObject({ behavior: 'allow', decidedBy: 'person' });

    const listed = await askdock(t.operatorToken, 'policy', 'grants', '--json');
    expect(listed.code).toBe(0);
    const { grants } = JSON.parse(listed.stdout) as { grants: { id: string; rule: string; scope: string; questionId: string }[] };
    expect(grants).toEqual([expect.objectContaining({ rule: 'Bash(make deploy)', scope: 'session', questionId: question.id })]);
    const table = await askdock(t.operatorToken, 'policy', 'grants');
    expect(table.stdout.split('\n')[0]).toMatch(/^ID\s+RULE\s+SCOPE\s+UNTIL\s+BY\s+QUESTION$/);
    expect(table.stdout).toContain('Bash(make deploy)');

    const refused = await askdock(tokenOf('reader'), 'policy', 'grants');
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe('');

    const revoked = await askdock(t.operatorToken, 'policy', 'revoke', grants[0].id);
    expect(revoked).toMatchObject({ code: 0, stdout: `revoked grant ${grants[0].id}\n` });
    expect(JSON.parse((await askdock(t.operatorToken, 'policy', 'grants', '--json')).stdout)).toEqual({ grants: [] });
    expect((await askdock(t.operatorToken, 'policy', 'grants')).stdout).toBe('no grants\n');
    const again = await askdock(t.operatorToken, 'policy', 'revoke', grants[0].id);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(`no grant ${grants[0].id} is in force`);
  });
});
