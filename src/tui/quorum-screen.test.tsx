import { afterEach, describe, expect, it } from 'vitest';
import { policyConfig } from '../testing/policy-config.ts';
import { KEY, startTui, type TuiHarness } from '../testing/tui-harness.tsx';

let h: TuiHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** Approvals need Allow from the admin (this terminal's identity, named Ana) and the guest (E5). */
const config = {
  ...policyConfig,
  identities: policyConfig.identities.map((i) => (i.id === 'admin' ? { ...i, name: 'Ana' } : i)),
  routing: {
    escalations: { review: { steps: [{ notify: ['identity:admin', 'identity:guest'], wait: '30m' }], exhausted: 'deny' as const } },
    routes: [{ match: { kind: ['approval' as const] }, escalation: 'review', quorum: 2 }],
  },
};

/** Asks for an Allow of `make release` in a run of the terminal's session; returns the question's id once its prompt shows. */
async function askRelease(tui: TuiHarness): Promise<string> {
  const { runId } = await tui.agent.call('run.start', { sessionKey: tui.sessionKey });
  const { id } = await tui.agent.call('question.request', { sessionKey: tui.sessionKey, runId, approval: { tool: 'Bash', input: { command: 'make release' }, cwd: '/srv/app' } });
  await tui.waitFor('1. Allow');
  return id;
}

describe('a two-person approval in the TUI (E5)', () => {
  it('[E5] this person\'s Allow held short of the quorum reads "Approval counted", never answered; a second Allow counts once', async () => {
    h = await startTui({ config });
    const id = await askRelease(h);
    await h.type('1\r');
    const screen = await h.waitFor('Approval counted: 1 of 2 approvals (Ana). Waiting for 1 more person.');
    expect(screen).not.toContain('✓');
    expect(screen).not.toMatch(/Answered|Not answered/);
    await h.type('1\r');
    await h.waitFor('Your approval was already counted: 1 of 2 approvals (Ana). Waiting for 1 more person.');
    const q = (await h.admin.call('question.get', { id })).question;
    expect(q.status).toBe('pending');
    expect(q.route?.quorum?.approvals.map((a) => a.identity)).toEqual(['admin']);
  });

  it('[E5] a Deny after their own held Allow still goes, and denies at once', async () => {
    h = await startTui({ config });
    const id = await askRelease(h);
    await h.type('1\r');
    await h.waitFor('Approval counted: 1 of 2 approvals (Ana). Waiting for 1 more person.');
    await h.type('2\r');
    await expect.poll(async () => (await h!.admin.call('question.get', { id })).question.status).toBe('answered');
    const q = (await h.admin.call('question.get', { id })).question;
    expect(q.answers?.approval).toEqual(['Deny']);
  });

  it('[E5][V4] an Allow typed in the composer and held leaves the question open to this person: their Deny from the prompt still goes', async () => {
    h = await startTui({ config });
    const id = await askRelease(h);
    await h.press(KEY.esc);
    await h.waitFor('1 question pending');
    await h.type('1');
    await h.press(KEY.enter);
    await h.waitFor('Approval counted: 1 of 2 approvals (Ana). Waiting for 1 more person.');
    await h.type('/question');
    await h.press(KEY.enter);
    await h.waitFor('1. Allow');
    await h.type('2\r');
    await expect.poll(async () => (await h!.admin.call('question.get', { id })).question.status).toBe('answered');
    expect((await h.admin.call('question.get', { id })).question.answers?.approval).toEqual(['Deny']);
  });
});
