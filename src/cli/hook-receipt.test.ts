import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseVerifierKey, verifyReceipt } from '../audit/index.ts';
import { nextEvent, startTestGateway, type TestGateway } from '../testing/agent-harness.ts';
import { testConfig } from '../testing/gateway-harness.ts';
import { hookAsks, hookFixture, startHook } from '../testing/hook-process.ts';

const APPROVALS = { rules: [{ id: 'npm-tests', rule: 'Bash(npm run test *)', decision: 'allow' }], unmatched: 'ask' };
const claudeBash = (command: string) => JSON.stringify({ ...JSON.parse(hookFixture('claude-bash')), session_id: 'receipt-run', tool_input: { command } });

/** The receipts the hook's log (its stderr) holds, by question id. */
const receiptsIn = (stderr: string) => new Map([...stderr.matchAll(/^askdock hook: receipt of (\S+): (\S+)$/gm)].map((m) => [m[1], m[2]]));

describe('askdock hook logs the receipt of its decision (L4)', { timeout: 120_000 }, () => {
  let t: TestGateway;
  beforeAll(async () => {
    t = await startTestGateway({ config: { ...testConfig, approvals: APPROVALS } as never, auditSigning: true });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  async function publicKeys() {
    const res = await fetch(`${t.gateway.url}/.well-known/askdock/audit-keys`);
    return ((await res.json()) as { keys: { verifierKey: string }[] }).keys.map((k) => parseVerifierKey(k.verifierKey));
  }

  it('[L4] an approval a person allowed: the hook\'s log holds the receipt, which verifies with the published key and names the question', async () => {
    const requested = nextEvent(t.operator, 'question.requested');
    const hook = startHook(t, claudeBash('curl https://example.com'));
    const question = await hookAsks(t.operator, hook, requested);
    await t.operator.request('question.resolve', { id: question.id, answers: { approval: ['Allow'] } });
    const out = await hook.done;
    expect(JSON.parse(out.stdout).hookSpecificOutput.decision).toEqual({ behavior: 'allow' });
    const receipt = receiptsIn(out.stderr).get(question.id);
    expect(receipt, out.stderr).toBeDefined();
    expect(verifyReceipt(receipt!, await publicKeys())).toMatchObject({ ok: true, payload: { questionId: question.id, status: 'allowed', decidedBy: 'person' } });
  });

  it('[L4] an approval the policy allowed at once: the receipt is in the hook\'s log too, decided by the policy under its rule', async () => {
    const out = await startHook(t, claudeBash('npm run test -- --run'), ['--timeout', '30']).done;
    expect(JSON.parse(out.stdout).hookSpecificOutput.decision).toEqual({ behavior: 'allow' });
    const receipts = [...receiptsIn(out.stderr).values()];
    expect(receipts, out.stderr).toHaveLength(1);
    expect(verifyReceipt(receipts[0], await publicKeys())).toMatchObject({ ok: true, payload: { status: 'allowed', decidedBy: 'policy', rules: ['npm-tests'] } });
  });
});
