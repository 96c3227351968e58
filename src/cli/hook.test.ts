import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nextEvent, startTestGateway, type TestGateway } from '../testing/agent-harness.ts';
import { readHookEvent } from './hook.ts';
import { RestartableGateway } from '../testing/restartable-gateway.ts';
import { testConfig, tokenOf } from '../testing/gateway-harness.ts';
import { createNodeClient } from '../client/node.ts';
import { hookAsks, hookFixture, startHook } from '../testing/hook-process.ts';

const HERE = dirname(fileURLToPath(import.meta.url));
const fixture = hookFixture;
const HOOK_FIXTURES = readdirSync(resolve(HERE, '../testing/hook-fixtures')).map((f) => f.replace(/\.json$/, ''));

describe('askdock hook, answered through the gateway', { timeout: 120_000 }, () => {
  let t: TestGateway;
  beforeAll(async () => {
    t = await startTestGateway();
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  /** Runs the hook on a fixture, answers its question(s) as an operator, returns what it printed. */
  async function answered(name: string, answer: (q: { id: string; questions: { id: string }[] }) => Record<string, unknown>, rounds = 1) {
    let requested = nextEvent(t.operator, 'question.requested');
    const hook = startHook(t, fixture(name));
    const records = [];
    for (let i = 0; i < rounds; i++) {
      const question = await hookAsks(t.operator, hook, requested);
      records.push(question);
      if (i + 1 < rounds) requested = nextEvent(t.operator, 'question.requested', (p) => p.question.id !== question.id);
      await t.operator.request('question.resolve', { id: question.id, ...answer(question) } as never);
    }
    const out = await hook.done;
    expect(out.code).toBe(0);
    return { ...out, records };
  }

  it('[G4][X2] with no policy a Bash approval is the gateway\'s approval question (Allow / Deny first); Allow prints allow [X1]', async () => {
    const { stdout, records } = await answered('claude-bash', () => ({ answers: { approval: ['Allow'] } }));
    const q = records[0].questions[0];
    expect(q.kind).toBe('approval');
    expect(q.options.slice(0, 2).map((o) => o.label)).toEqual(['Allow', 'Deny']);
    expect(JSON.parse(stdout)).toEqual({ hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'allow' } } });
  });

  it('[X1] one askdock session per agent session, titled "Claude Code · <folder> · <when it first asked>" without a transcript to read', async () => {
    const { records } = await answered('claude-bash', () => ({ skip: true }));
    const { sessions } = await t.operator.request('sessions.list', {});
    const own = sessions.filter((s) => s.title.startsWith('Claude Code · shop · '));
    expect(own).toHaveLength(1);
    expect(own[0].title).toMatch(/^Claude Code · shop · [A-Z][a-z]{2} \d{1,2} \d{2}:\d{2}$/);
    expect(records[0].sessionKey).toBe(own[0].key);
  });

  it('[X1] two runs in one folder are two sessions told apart by each run\'s first prompt; a second question of a run stays in its session', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'askdock-transcripts-'));
    const run = async (sessionId: string, prompt: string) => {
      const transcript = join(dir, `${sessionId}.jsonl`);
      const lines = [{ type: 'summary', summary: 'x' }, { type: 'user', isMeta: true, message: { role: 'user', content: '<command-name>/init</command-name>' } }, { type: 'user', message: { role: 'user', content: prompt } }];
      writeFileSync(transcript, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
      const event = { ...JSON.parse(fixture('claude-bash')), session_id: sessionId, transcript_path: transcript, cwd: '/home/dev/proj' };
      const requested = nextEvent(t.operator, 'question.requested');
      const hook = startHook(t, JSON.stringify(event));
      const question = await hookAsks(t.operator, hook, requested);
      await t.operator.request('question.resolve', { id: question.id, skip: true });
      await hook.done;
      return question.sessionKey;
    };
    try {
      const first = await run('run-1', 'Fix the login bug');
      const second = await run('run-2', 'Add a dark mode   toggle\nto the settings page');
      expect(await run('run-1', 'Fix the login bug')).toBe(first);
      const { sessions } = await t.operator.request('sessions.list', {});
      const titles = sessions.filter((s) => s.key === first || s.key === second).map((s) => s.title).sort();
      expect(titles).toEqual(['Claude Code · proj · Add a dark mode toggle to the settings page', 'Claude Code · proj · Fix the login bug']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('[X2] Deny denies; Other\'s text denies with that text as the message', async () => {
    const deny = await answered('claude-bash', () => ({ answers: { approval: ['Deny'] } }));
    expect(JSON.parse(deny.stdout)).toEqual({ hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'deny', message: 'The person denied this in askdock.' } } });
    const other = await answered('claude-bash', () => ({ answers: { approval: ['Keep node_modules, run npm ci instead'] } }));
    expect(JSON.parse(other.stdout)).toEqual({
      hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'deny', message: 'Keep node_modules, run npm ci instead' } },
    });
  });

  it('[G4] Edit and Write are asked as approvals and Allow allows them; an MCP tool denied prints deny', async () => {
    const edit = await answered('claude-edit', () => ({ answers: { approval: ['Allow'] } }));
    expect(edit.records[0].questions[0].kind).toBe('approval');
    expect(JSON.parse(edit.stdout).hookSpecificOutput.decision).toEqual({ behavior: 'allow' });
    const write = await answered('claude-write', () => ({ answers: { approval: ['Allow'] } }));
    expect(JSON.parse(write.stdout).hookSpecificOutput.decision).toEqual({ behavior: 'allow' });
    const mcp = await answered('claude-mcp-tool', () => ({ answers: { approval: ['Deny'] } }));
    expect(JSON.parse(mcp.stdout).hookSpecificOutput.decision.behavior).toBe('deny');
  });

  it('[X1] Codex: "Codex · <folder>", and the decision Codex reads', async () => {
    const { stdout, records } = await answered('codex-bash', () => ({ answers: { approval: ['Allow'] } }));
    expect(JSON.parse(stdout)).toEqual({ hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'allow' } } });
    const { sessions } = await t.operator.request('sessions.list', {});
    expect(sessions.find((s) => s.key === records[0].sessionKey)?.title).toMatch(/^Codex · shop · /);
  });

  it('[X3] AskUserQuestion asked as it stands; the answer comes back in updatedInput.answers', async () => {
    const { stdout, records } = await answered('claude-ask-single', () => ({ answers: { q1: ['Blue'] } }));
    expect(records[0].questions).toEqual([
      { id: 'q1', header: 'Color', question: 'Which color?', options: [{ label: 'Red', description: 'The color red' }, { label: 'Blue', description: 'The color blue' }] },
    ]);
    const input = JSON.parse(fixture('claude-ask-single')).tool_input;
    expect(JSON.parse(stdout)).toEqual({
      hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'allow', updatedInput: { ...input, answers: { 'Which color?': 'Blue' } } } },
    });
  });

  it('[X3] multi-select from PreToolUse: choices joined with ", " and Other\'s text as typed, permissionDecision allow', async () => {
    const { stdout, records } = await answered('claude-ask-multi', () => ({ answers: { q1: ['Dark mode', 'Export', 'Keyboard shortcuts'] } }));
    expect(records[0].questions[0].multiSelect).toBe(true);
    const input = JSON.parse(fixture('claude-ask-multi')).tool_input;
    expect(JSON.parse(stdout)).toEqual({
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'allow',
        updatedInput: { ...input, answers: { 'Which features do you want to enable?': 'Dark mode, Export, Keyboard shortcuts' } },
      },
    });
  });

  it('[X3] four questions go in two consecutive prompts; all four answers come back', async () => {
    const answers: Record<string, string[]> = { q1: ['Vue'], q2: ['pnpm'], q3: ['Lint', 'Tests'], q4: ['Staging'] };
    const { stdout, records } = await answered(
      'claude-ask-four',
      (q) => ({ answers: Object.fromEntries(q.questions.map((x) => [x.id, answers[x.id]])) }),
      2,
    );
    expect(records.map((r) => r.questions.map((q) => q.id))).toEqual([['q1', 'q2'], ['q3', 'q4']]);
    expect(JSON.parse(stdout).hookSpecificOutput.decision.updatedInput.answers).toEqual({
      'Which framework?': 'Vue',
      'Which package manager?': 'pnpm',
      'Which checks should run?': 'Lint, Tests',
      'Where should it deploy?': 'Staging',
    });
  });

  it('[X3] Skip on AskUserQuestion denies with a message saying the person skipped', async () => {
    const { stdout } = await answered('claude-ask-multi', () => ({ skip: true }));
    const out = JSON.parse(stdout).hookSpecificOutput;
    expect(out.permissionDecision).toBe('deny');
    expect(out.permissionDecisionReason).toMatch(/skipped/);
  });

  it('[X1] Skip on an approval prints nothing and exits 0', async () => {
    const { stdout, stderr } = await answered('claude-bash', () => ({ skip: true }));
    expect(stdout).toBe('');
    expect(stderr).toContain('no answer (skipped)');
  });

  it('[X1][Q12] an Elicitation event is answered as X5 maps schemas, printing its result', async () => {
    const { stdout, records } = await answered('claude-elicitation-form', () => ({ answers: { username: ['alice'] } }));
    expect(records[0].questions[0]).toMatchObject({ id: 'username', header: 'Username', question: 'Username' });
    // Q12: a typed field, not options read back by label; the field is optional, so it may be sent empty.
    expect(records[0].questions[0]).toMatchObject({ kind: 'input', input: { type: 'string', required: false }, options: [] });
    expect(JSON.parse(stdout)).toEqual({ hookSpecificOutput: { hookEventName: 'Elicitation', action: 'accept', content: { username: 'alice' } } });
    const url = await answered('claude-elicitation-url', () => ({ answers: { link: ['Done'] } }));
    expect(url.records[0].questions[0]).toMatchObject({ url: 'https://auth.example.com/login', options: [{ label: 'Done' }, { label: 'Decline' }] });
    expect(JSON.parse(url.stdout)).toEqual({ hookSpecificOutput: { hookEventName: 'Elicitation', action: 'accept' } });
  });

  it('[X6][X5][Q12] an Elicitation that asks for no fields is still asked (a confirm question), never accepted on its own', async () => {
    const accepted = await answered('claude-elicitation-confirm', () => ({ answers: { confirm: ['Yes'] } }));
    expect(accepted.records[0].questions[0]).toMatchObject({ id: 'confirm', kind: 'confirm', question: 'my-mcp-server: Delete the production database?' });
    expect(JSON.parse(accepted.stdout)).toEqual({ hookSpecificOutput: { hookEventName: 'Elicitation', action: 'accept', content: {} } });
    const declined = await answered('claude-elicitation-confirm', () => ({ answers: { confirm: ['No'] } }));
    expect(JSON.parse(declined.stdout).hookSpecificOutput.action).toBe('decline');
  });

  it('[X2][P3] a NUL in the tool input is shown as ␀, so the approval is still asked', async () => {
    const { stdout, records } = await answered('claude-bash-nul', () => ({ answers: { approval: ['Allow'] } }));
    expect(records[0].questions[0].detail).toContain("printf 'a\u2400b' > out.bin");
    expect(JSON.parse(stdout).hookSpecificOutput.decision).toEqual({ behavior: 'allow' });
  });

  it('[X6][Q1] killing the hook cancels its question (surface hook); nothing is printed', async () => {
    const requested = nextEvent(t.operator, 'question.requested');
    const hook = startHook(t, fixture('claude-bash'));
    const question = await hookAsks(t.operator, hook, requested);
    const resolved = nextEvent(t.operator, 'question.resolved', (p) => p.id === question.id);
    hook.child.kill('SIGTERM');
    // Q1: the record says the hook withdrew it.
    expect(await resolved).toMatchObject({ status: 'cancelled', resolvedBy: { surface: 'hook' } });
    const out = await hook.done;
    expect(out.stdout).toBe('');
  });

  it('[X1] an approval asked and answered compiles no parser: hello, the session, the question and its answer are read as they come', async () => {
    // zod's JIT would compile a parser (`new Function`) per object schema it first meets, work a hook never earns back:
    // a preload counts every function compiled from a string.
    const count = `let n = 0; globalThis.Function = new Proxy(Function, { construct(f, a) { n++; return Reflect.construct(f, a); }, apply(f, s, a) { n++; return Reflect.apply(f, s, a); } }); process.on('exit', () => process._rawDebug('COMPILED ' + n));`;
    const requested = nextEvent(t.operator, 'question.requested');
    const hook = startHook(t, fixture('claude-bash'), [], { env: { NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import "data:text/javascript,${encodeURIComponent(count)}"` } });
    const question = await hookAsks(t.operator, hook, requested);
    await t.operator.request('question.resolve', { id: question.id, answers: { approval: ['Allow'] } });
    const out = await hook.done;
    expect(JSON.parse(out.stdout).hookSpecificOutput.decision.behavior).toBe('allow');
    expect(out.stderr.match(/^COMPILED (\d+)$/m)?.[1]).toBe('0');
  });

  it('[X1] a bad event prints nothing, says why on stderr and exits 0', async () => {
    for (const [stdin, why] of [
      ['not json', 'not JSON'],
      ['{"hook_event_name":"PermissionRequest","cwd":"/x","tool_input":{}}', 'lacks session_id, tool_name'],
      ['[1,2]', 'not a JSON object'],
    ] as const) {
      const out = await startHook(t, stdin).done;
      expect(out).toMatchObject({ code: 0, stdout: '' });
      expect(out.stderr).toContain(why);
    }
  });
});

describe('askdock hook without an answer', { timeout: 120_000 }, () => {
  it('[X1] no gateway reachable: nothing printed, exit 0', async () => {
    const out = await startHook({ url: 'ws://127.0.0.1:9/ws', agentToken: 'tok', dir: HERE }, fixture('claude-bash')).done;
    expect(out).toMatchObject({ code: 0, stdout: '' });
    expect(out.stderr).toContain('the agent asks in its own terminal');
  });
});

describe('askdock hook with a bad flag', { timeout: 60_000 }, () => {
  it('[X1] a flag it does not know, or a bad --timeout, says so on stderr and exits 0 (exit 2 would deny the tool): the agent asks in its own terminal', async () => {
    const nowhere = { url: 'ws://127.0.0.1:9/ws', agentToken: 'tok', dir: HERE };
    const unknown = await startHook(nowhere, fixture('claude-bash'), ['--bogus']).done;
    expect(unknown).toMatchObject({ code: 0, stdout: '' });
    expect(unknown.stderr).toContain('--bogus');
    const badTimeout = await startHook(nowhere, fixture('claude-bash'), ['--timeout', 'soon']).done;
    expect(badTimeout).toMatchObject({ code: 0, stdout: '' });
    expect(badTimeout.stderr).toContain('--timeout');
  });
});

describe('askdock hook on stderr', { timeout: 60_000 }, () => {
  it('[X1] a tool or event name carrying escape sequences reaches the terminal cleaned: controls as U+FFFD, a bidi override as its escape', async () => {
    const nowhere = { url: 'ws://127.0.0.1:9/ws', agentToken: 'tok', dir: HERE };
    const evil = '\u001b]0;owned\u0007\u001b]52;c;QQ==\u0007\u001b[31mX\u202E';
    const base = { session_id: 's', cwd: '/x', tool_input: {} };
    for (const event of [{ ...base, hook_event_name: 'PreToolUse', tool_name: `Bash${evil}` }, { ...base, hook_event_name: `Stop${evil}` }]) {
      const out = await startHook(nowhere, JSON.stringify(event)).done;
      expect(out).toMatchObject({ code: 0, stdout: '' });
      expect(out.stderr).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
      expect(out.stderr).toContain('\uFFFD]0;owned\uFFFD\uFFFD]52;c;QQ==\uFFFD\uFFFD[31mX\\u202E');
    }
  });
});

describe('readHookEvent', () => {
  it('[X1] PreToolUse for another tool is left to the agent; unknown events too', () => {
    expect(readHookEvent(JSON.stringify({ hook_event_name: 'PreToolUse', session_id: 's', cwd: '/x', tool_name: 'Bash', tool_input: {} })).kind).toBe('ignored');
    expect(readHookEvent(JSON.stringify({ hook_event_name: 'Stop', session_id: 's', cwd: '/x' })).kind).toBe('ignored');
    expect(readHookEvent(fixture('claude-bash'))).toMatchObject({ kind: 'tool', agent: 'Claude Code', toolName: 'Bash' });
    expect(readHookEvent(fixture('codex-bash'))).toMatchObject({ kind: 'tool', agent: 'Codex' });
  });

  it('[X1] every fixture the gateway tests drive is read as asked, without a gateway', () => {
    const kinds = Object.fromEntries(HOOK_FIXTURES.map((name) => [name, readHookEvent(fixture(name)).kind]));
    expect(kinds).toEqual(Object.fromEntries(HOOK_FIXTURES.map((name) => [name, name.includes('elicitation') ? 'elicitation' : 'tool'])));
  });
});

describe('askdock hook through a gateway restart', { timeout: 120_000 }, () => {
  it('[X6][R3] a gateway restarted while the hook waits keeps the question; the answer after it still decides', async () => {
    const gw = await RestartableGateway.start(testConfig);
    const admin = createNodeClient({ url: gw.url, token: tokenOf('admin'), client: { name: 'hook-restart-admin', mode: 'cli' }, backoff: { initialMs: 100, maxMs: 1000 } });
    try {
      await admin.start();
      const hook = startHook({ url: gw.url, agentToken: tokenOf('agent'), dir: HERE }, fixture('claude-bash'));
      const pending = async () => (await admin.request('question.list', { status: 'pending' })).questions;
      await expect.poll(async () => (await pending()).length, { timeout: 60_000 }).toBe(1);
      const [question] = await pending();
      await gw.restart();
      await admin.ready(60_000);
      await admin.request('question.resolve', { id: question.id, answers: { approval: ['Allow'] } });
      const out = await hook.done;
      expect(out.code).toBe(0);
      expect(JSON.parse(out.stdout)).toEqual({ hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'allow' } } });
    } finally {
      admin.close();
      await gw.close();
    }
  });
});
