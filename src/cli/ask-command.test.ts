import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { headerFromQuestion, parseAskArgs, readAskArgs } from './ask-command.ts';
import { fastClock, nextEvent, startTestGateway, type TestGateway } from '../testing/agent-harness.ts';
import { testConfig } from '../testing/gateway-harness.ts';

const BIN = resolve(dirname(fileURLToPath(import.meta.url)), '../../bin/askdock.js');

type Outcome = { code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string };

function askdock(args: string[], cwd: string): { child: ChildProcess; done: Promise<Outcome> } {
  const env = { ...process.env };
  delete env.ASKDOCK_URL;
  delete env.ASKDOCK_TOKEN;
  const child = spawn(process.execPath, [BIN, ...args], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
  const done = new Promise<Outcome>((ok) => child.once('close', (code, signal) => ok({ code, signal, stdout, stderr })));
  return { child, done };
}

describe('headerFromQuestion', () => {
  it('[T1] makes a short label of whole words from the question', () => {
    expect(headerFromQuestion('Where should I deploy?')).toBe('Deploy');
    expect(headerFromQuestion('Deploy to production now?')).toBe('Deploy to');
    expect(headerFromQuestion('Which database should we use?')).toBe('Database');
    expect(headerFromQuestion('Internationalisation first?')).toBe('Internationa');
    expect(headerFromQuestion('Why?')).toBe('Why');
    // Readable words, not what is left after the question words: never "This expire".
    expect(headerFromQuestion('Does this expire?')).toBe('Expire');
    expect(headerFromQuestion('Is it ok to merge now?')).toBe('Merge now');
    for (const q of ['Where should I deploy?', 'Supercalifragilistic?', 'a b c d e f g h i j k l m n']) {
      expect(Array.from(headerFromQuestion(q)).length).toBeLessThanOrEqual(12);
    }
  });
});

describe('parseAskArgs', () => {
  it('[T1] builds one question with id "answer"', () => {
    const args = parseAskArgs(['Ship it?', '-o', 'Yes (Recommended)', '-o', 'No', '--multi', '--header', 'Ship', '--timeout', '60', '--json']);
    expect(args.input).toEqual({
      questions: [
        { id: 'answer', header: 'Ship', question: 'Ship it?', options: [{ label: 'Yes (Recommended)' }, { label: 'No' }], multiSelect: true },
      ],
      timeoutSeconds: 60,
    });
    expect(args.json).toBe(true);
  });

  it('[T3] names the flag and the rule', () => {
    expect(() => parseAskArgs(['Ship it?', '-o', 'Yes'])).toThrow('-o: options must have 2 to 4 entries');
    expect(() => parseAskArgs(['Ship it?', '-o', 'Yes', '-o', 'Other'])).toThrow('-o #2 ("Other"): must not be an authored "Other" option');
    expect(() => parseAskArgs(['Ship it?', '-o', 'Yes', '-o', 'No', '--timeout', 'soon'])).toThrow('--timeout: must be a whole number of seconds');
    expect(() => parseAskArgs(['Ship it?', '-o', 'Yes', '-o', 'No', '--header', '  '])).toThrow('--header: header must not be blank');
    expect(() => parseAskArgs(['-o', 'Yes', '-o', 'No'])).toThrow('the question is missing');
    expect(() => parseAskArgs(['Ship', 'it?', '-o', 'Yes', '-o', 'No'])).toThrow('expected one question in quotes');
    expect(() => parseAskArgs(['Ship it?', '-o', 'Yes', '-o', 'No', '--colour'])).toThrow(/--colour/);
    expect(() => parseAskArgs(['Ship it?', '-o', 'Yes', '-o', 'No', '--link', 'javascript:alert(1)'])).toThrow('--link: url must be an http:// or https:// address');
  });

  it('[T3] reports every problem at once, one a line, each naming its flag; --flag=VALUE works as --flag VALUE', () => {
    const { problems } = readAskArgs(['Ship', 'it?', '-o', 'Yes', '--colour', '--timeout', 'soon', '--json=yes', '--header'], {}, '/nonexistent');
    expect(problems).toEqual([
      '--colour: not an option of askdock ask',
      '--json: takes no value, got "yes"',
      '--header: needs a value',
      expect.stringContaining('expected one question in quotes, got 2 words'),
      expect.stringContaining('--timeout: must be a whole number of seconds'),
      expect.stringContaining('-o: options must have 2 to 4 entries'),
      expect.stringContaining('--token: no agent token'),
    ]);
    expect(readAskArgs(['Ship it?', '-o', 'A', '-o', 'B', '--session', '--json'], {}, '/nonexistent').problems[0]).toBe(
      '--session: needs a value; to give one that starts with "-", write --session=--json',
    );
    const args = parseAskArgs(['Ship it?', '-o', 'Yes', '-oNo', '--header=Ship', '--timeout=60', '--token=-dash-first-token']);
    expect(args).toMatchObject({ token: '-dash-first-token', input: { timeoutSeconds: 60, questions: [{ header: 'Ship', options: [{ label: 'Yes' }, { label: 'No' }] }] } });
  });

  it('[U16] --link puts the page to open on the question', () => {
    const args = parseAskArgs(['Approve the pull request?', '-o', 'Approve', '-o', 'Reject', '--link', 'https://example.com/pr/42']);
    expect(args.input.questions[0].url).toBe('https://example.com/pr/42');
  });
});

describe('askdock ask as a child process', { timeout: 90_000 }, () => {
  let t: TestGateway;
  beforeAll(async () => {
    t = await startTestGateway();
  });
  afterAll(async () => {
    await t.close();
  });
  const conn = () => ['--url', t.url, '--token', t.agentToken];

  it('[U11] exits 0 and prints the answer; the question\'s own page goes to stderr', async () => {
    const requested = nextEvent(t.operator, 'question.requested');
    const run = askdock(['ask', 'Where should I deploy?', '-o', 'Staging (Recommended)', '-o', 'Production', ...conn()], t.dir);
    const { question } = await requested;
    expect(question.questions[0]).toMatchObject({ id: 'answer', header: 'Deploy', question: 'Where should I deploy?' });
    expect(question.sessionKey).toMatch(/^s_/);
    await t.operator.request('question.resolve', { id: question.id, answers: { answer: ['production'] } });
    const out = await run.done;
    expect(out).toMatchObject({ code: 0, stdout: 'Production\n' });
    // U11: the question's own page, printed once (on stderr, so stdout stays the answer alone).
    const page = `${t.url.replace(/^ws/, 'http').replace(/\/ws$/, '').replace(/\/$/, '')}/q/${question.id}`;
    expect(out.stderr.split('\n').filter((l) => l.includes('/q/'))).toEqual([`askdock ask: waiting for an answer; answer it at ${page}`]);
  });

  it('[T6] without --session asks in a session of its own, "askdock ask · <folder>", the same one on every run; two asks at once take turns', async () => {
    const folder = join(t.dir, 'release-tools');
    mkdirSync(folder, { recursive: true });
    const one = nextEvent(t.operator, 'question.requested');
    const first = askdock(['ask', 'Ship it?', '-o', 'Yes', '-o', 'No', ...conn()], folder);
    const q1 = (await one).question;
    const session = (await t.operator.request('sessions.list', {})).sessions.find((s) => s.key === q1.sessionKey);
    expect(session).toMatchObject({ title: 'askdock ask · release-tools', agentId: 'agent' });
    // A second ask in the same folder waits for the first (one blocking question per session, Q11), then asks there.
    const two = nextEvent(t.operator, 'question.requested', (p) => p.question.id !== q1.id, 30_000);
    const second = askdock(['ask', 'Tag it?', '-o', 'Yes', '-o', 'No', ...conn()], folder);
    await t.operator.request('question.resolve', { id: q1.id, answers: { answer: ['Yes'] } });
    expect(await first.done).toMatchObject({ code: 0, stdout: 'Yes\n' });
    const q2 = (await two).question;
    expect(q2.sessionKey).toBe(q1.sessionKey);
    await t.operator.request('question.resolve', { id: q2.id, answers: { answer: ['No'] } });
    expect(await second.done).toMatchObject({ code: 0, stdout: 'No\n' });
    const titles = (await t.operator.request('sessions.list', {})).sessions.filter((s) => s.title === 'askdock ask · release-tools');
    expect(titles).toHaveLength(1);
  });

  it('exits 0 with --json printing the T2 result, values of a multi-select joined in JSON', async () => {
    const { session } = await t.operator.request('sessions.create', {});
    const requested = nextEvent(t.operator, 'question.requested');
    const run = askdock(['ask', 'Notify whom?', '-o', 'Email', '-o', 'Slack', '--multi', '--json', '--session', session.key, ...conn()], t.dir);
    const { question } = await requested;
    expect(question).toMatchObject({ sessionKey: session.key, questions: [{ multiSelect: true }] });
    await t.operator.request('question.resolve', { id: question.id, answers: { answer: ['Email', 'Slack'] } });
    const out = await run.done;
    expect(out.code).toBe(0);
    expect(JSON.parse(out.stdout)).toEqual({ status: 'answered', answers: { answers: { answer: ['Email', 'Slack'] } } });
  });

  it('[T2] prints a free-text answer with nothing a terminal acts on: controls as U+FFFD, a bidi override as its escape; --json keeps the value', async () => {
    const typed = 'ok\u001b]0;owned\u0007\u001b]52;c;QQ==\u0007\u001b[31mred\u202Etxt.exe\u009b2J';
    const plain = nextEvent(t.operator, 'question.requested');
    const run = askdock(['ask', 'Anything else?', '-o', 'No', '-o', 'Yes', ...conn()], t.dir);
    await t.operator.request('question.resolve', { id: (await plain).question.id, answers: { answer: [typed] } });
    const out = await run.done;
    expect(out).toMatchObject({ code: 0, stdout: 'ok\uFFFD]0;owned\uFFFD\uFFFD]52;c;QQ==\uFFFD\uFFFD[31mred\\u202Etxt.exe\uFFFD2J\n' });
    const json = nextEvent(t.operator, 'question.requested');
    const asJson = askdock(['ask', 'Anything else?', '-o', 'No', '-o', 'Yes', '--json', ...conn()], t.dir);
    await t.operator.request('question.resolve', { id: (await json).question.id, answers: { answer: [typed] } });
    const outJson = await asJson.done;
    expect(outJson.stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
    expect(JSON.parse(outJson.stdout)).toEqual({ status: 'answered', answers: { answers: { answer: [typed] } } });
  });

  it('prints several values joined by ", "', async () => {
    const requested = nextEvent(t.operator, 'question.requested');
    const run = askdock(['ask', 'Notify whom?', '-o', 'Email', '-o', 'Slack', '--multi', ...conn()], t.dir);
    const { question } = await requested;
    await t.operator.request('question.resolve', { id: question.id, answers: { answer: ['Email', 'Slack'] } });
    expect(await run.done).toMatchObject({ code: 0, stdout: 'Email, Slack\n' });
  });

  // Each rule is checked in-process above; here the exit code and the message reach the shell.
  it('exits 2 on bad arguments, naming the flag and the rule', async () => {
    const out = await askdock(['ask', 'Deploy?', '-o', 'Yes', ...conn()], t.dir).done;
    expect(out.code).toBe(2);
    expect(out.stderr).toContain('askdock ask: -o: options must have 2 to 4 entries');
    const noToken = await askdock(['ask', 'Deploy?', '-o', 'Yes', '-o', 'No', '--url', t.url], t.dir).done;
    expect(noToken.code).toBe(2);
    expect(noToken.stderr).toContain('--token: no agent token');
    // T3: every problem at once, each on its own line.
    const several = await askdock(['ask', 'Deploy?', '-o', 'Yes', '--timeout', 'soon', '--url', 'ftp://x'], t.dir).done;
    expect(several.code).toBe(2);
    expect(several.stderr).toContain('askdock ask: --timeout: must be a whole number');
    expect(several.stderr).toContain('askdock ask: -o: options must have 2 to 4 entries');
    expect(several.stderr).toMatch(/askdock ask: --token: no agent token|askdock ask: --url: "ftp:\/\/x"/);
  });

  it('exits 3 when skipped', async () => {
    const requested = nextEvent(t.operator, 'question.requested');
    const run = askdock(['ask', 'Deploy?', '-o', 'Yes', '-o', 'No', ...conn()], t.dir);
    const { question } = await requested;
    await t.operator.request('question.resolve', { id: question.id, skip: true });
    const out = await run.done;
    expect(out).toMatchObject({ code: 3, stdout: '' });
    expect(out.stderr).toContain('no answer (skipped)');
  });

  it('[T5] exits 5 on Ctrl+C, cancelling the question within a second', async () => {
    const requested = nextEvent(t.operator, 'question.requested');
    const run = askdock(['ask', 'Deploy?', '-o', 'Yes', '-o', 'No', '--json', ...conn()], t.dir);
    const { question } = await requested;
    const resolved = nextEvent(t.operator, 'question.resolved', (p) => p.id === question.id);
    run.child.kill('SIGINT');
    const out = await run.done;
    // Sent by the CLI before it exited (Q7's grace, after its connection closed, would say requester-inactive). That
    // the cancel goes at once, before the aborted ask ends, is the SDK's (sdk.test.ts), which the CLI asks through.
    expect(await resolved).toMatchObject({ status: 'cancelled', reason: 'aborted' });
    expect(out.code).toBe(5);
    expect(JSON.parse(out.stdout)).toEqual({ status: 'no_answer', reason: 'cancelled' });
  });

  it('exits 1 when the gateway cannot be reached', async () => {
    const out = await askdock(['ask', 'Deploy?', '-o', 'Yes', '-o', 'No', '--url', 'ws://127.0.0.1:9', '--token', 'abcdefgh'], t.dir).done;
    expect(out.code).toBe(1);
    expect(out.stderr).toContain('cannot reach the gateway at ws://127.0.0.1:9');
  });

  it('exits 1 when the token is refused', async () => {
    const out = await askdock(['ask', 'Deploy?', '-o', 'Yes', '-o', 'No', '--url', t.url, '--token', 'wrong-token'], t.dir).done;
    expect(out.code).toBe(1);
    expect(out.stderr).toContain('UNAUTHORIZED');
    // Words for a person: no rule ids such as "(P4)".
    expect(out.stderr).not.toMatch(/\((?:RU|PT|[A-Z])\d+\)/);
  });

  it('reads ASKDOCK_URL and ASKDOCK_TOKEN', async () => {
    const requested = nextEvent(t.operator, 'question.requested');
    const child = spawn(process.execPath, [BIN, 'ask', 'Deploy?', '-o', 'Yes', '-o', 'No'], {
      cwd: t.dir,
      env: { ...process.env, ASKDOCK_URL: t.url, ASKDOCK_TOKEN: t.agentToken },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    const code = new Promise((ok) => child.once('close', ok));
    const { question } = await requested;
    await t.operator.request('question.resolve', { id: question.id, answers: { answer: ['Yes'] } });
    expect(await code).toBe(0);
    expect(stdout).toBe('Yes\n');
  });
});

describe('askdock ask expiry', () => {
  it('[Q3] --timeout below 30 s says on stderr that it was raised to 30 s; one above 3600 s that it was lowered', async () => {
    const t = await startTestGateway({ clock: fastClock(100), requesterGraceMs: 3_600_000 });
    try {
      const out = await askdock(['ask', 'Deploy?', '-o', 'Yes', '-o', 'No', '--timeout', '5', '--url', t.url, '--token', t.agentToken], t.dir).done;
      expect(out.code).toBe(4);
      expect(out.stderr).toContain('askdock ask: --timeout 5 raised to the minimum, 30 s (timeouts are 30..3600 s)\n');
      const requested = nextEvent(t.operator, 'question.requested');
      const long = askdock(['ask', 'Deploy?', '-o', 'Yes', '-o', 'No', '--timeout', '7200', '--url', t.url, '--token', t.agentToken], t.dir);
      const { question } = await requested;
      expect(question.expiresAtMs! - question.createdAtMs).toBe(3_600_000);
      await t.operator.request('question.resolve', { id: question.id, answers: { answer: ['Yes'] } });
      const done = await long.done;
      expect(done.stderr).toContain('askdock ask: --timeout 7200 lowered to the maximum, 3600 s (timeouts are 30..3600 s)\n');
      const inRange = await askdock(['ask', 'Deploy?', '-o', 'Yes', '-o', 'No', '--timeout', '30', '--url', t.url, '--token', t.agentToken], t.dir).done;
      expect(inRange.stderr).not.toContain('--timeout 30');
    } finally {
      await t.close();
    }
  });

  it('[U11] with the gateway\'s publicUrl, the question\'s page is printed on that address, not the bind address', async () => {
    const t = await startTestGateway({ config: { ...testConfig, publicUrl: 'https://askdock.team.example/' } });
    try {
      const requested = nextEvent(t.operator, 'question.requested');
      const run = askdock(['ask', 'Deploy?', '-o', 'Yes', '-o', 'No', '--url', t.url, '--token', t.agentToken], t.dir);
      const { question } = await requested;
      await t.operator.request('question.resolve', { id: question.id, answers: { answer: ['Yes'] } });
      const out = await run.done;
      expect(out.code).toBe(0);
      expect(out.stderr).toContain(`askdock ask: waiting for an answer; answer it at https://askdock.team.example/q/${question.id}\n`);
      expect(out.stderr).not.toContain('127.0.0.1');
    } finally {
      await t.close();
    }
  });

  it('exits 4 when nobody answers in time', async () => {
    // The gateway runs 100 times faster than real time, so --timeout 30 expires in about 0.3 s.
    const t = await startTestGateway({ clock: fastClock(100), requesterGraceMs: 3_600_000 });
    try {
      const out = await askdock(['ask', 'Deploy?', '-o', 'Yes', '-o', 'No', '--timeout', '30', '--url', t.url, '--token', t.agentToken], t.dir).done;
      expect(out.code).toBe(4);
      expect(out.stderr).toContain('no answer (expired)');
    } finally {
      await t.close();
    }
  });
});
