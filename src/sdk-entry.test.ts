import { execFile, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nextEvent, startTestGateway, type TestGateway } from './testing/agent-harness.ts';

const run = promisify(execFile);
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const TSC = join(ROOT, 'node_modules', '.bin', 'tsc');
const work = mkdtempSync(join(tmpdir(), 'askdock-sdk-'));
const project = join(work, 'consumer');

/** Only what a user's shell would have: no ASKDOCK_* and no npm settings inherited from the test runner. */
function cleanEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!/^(ASKDOCK_|npm_)/i.test(k)) env[k] = v;
  return env;
}

/** What an agent developer writes after `npm install askdock`: plain JavaScript, run by plain Node. */
const SCRIPT = `import { connect } from 'askdock';
const agent = await connect({ url: process.env.GATEWAY_URL, token: process.env.GATEWAY_TOKEN, name: 'packed-sdk' });
const result = await agent.askUser({
  questions: [{ id: 'deploy_target', header: 'Deploy', question: 'Where should I deploy?',
    options: [{ label: 'Staging (Recommended)' }, { label: 'Production' }] }],
});
console.log(JSON.stringify(result));
agent.close();
`;

/** The same in TypeScript, checked against the shipped declarations; the wrong assignment must be refused. */
const TYPED = `import { connect, type Agent, type AskUserResult, type ConnectOptions } from 'askdock';
const opts: ConnectOptions = { url: 'ws://127.0.0.1:7420', token: 'x' };
export async function ask(): Promise<AskUserResult> {
  const agent: Agent = await connect(opts);
  return agent.askUser({ questions: [{ id: 'a', header: 'A', question: 'Which?', options: [{ label: 'One' }, { label: 'Two' }] }] });
}
`;

let gateway: TestGateway;
beforeAll(async () => {
  gateway = await startTestGateway();
});
// The packed project holds an installed node_modules: removing it, like the install, takes what the machine's disk gives.
afterAll(async () => {
  await gateway?.close();
  await rm(work, { recursive: true, force: true });
}, 120_000);

function runNode(file: string, env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [file], { cwd: project, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (b: Buffer) => (stdout += b.toString()));
    child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
    child.on('close', (code) => done({ code, stdout, stderr }));
  });
}

describe('the packed SDK', () => {
  it('[SDK] `npm pack` ships compiled JavaScript and types; a fresh project imports `askdock` on plain Node, asks, and gets the answer', { timeout: 600_000 }, async () => {
    const env = cleanEnv();
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string>; exports: Record<string, unknown> };
    expect(pkg.scripts.prepack).toContain('vite build');
    expect(pkg.scripts.prepack).toContain('npm run build:sdk');
    expect(pkg.scripts['build:sdk']).toContain('tsc -p tsconfig.sdk.json');
    // prepack's SDK half (its tsc step; files are rewritten in place, so a pack running beside this test never misses one),
    // without the UI build, which is not what is checked here.
    await run(TSC, ['-p', 'tsconfig.sdk.json'], { cwd: ROOT, env });
    await run('npm', ['pack', '--ignore-scripts', '--pack-destination', work], { cwd: ROOT, env });
    const tarball = readdirSync(work).find((f) => f.endsWith('.tgz'));
    expect(tarball).toBeDefined();

    mkdirSync(project);
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', version: '1.0.0', private: true, type: 'module' }));
    await run('npm', ['install', '--prefer-offline', '--ignore-scripts', '--no-audit', '--no-fund', join(work, tarball!)], {
      cwd: project,
      env,
      maxBuffer: 16 * 1024 * 1024,
    });

    writeFileSync(join(project, 'ask.mjs'), SCRIPT);
    const requested = nextEvent(gateway.operator, 'question.requested');
    const child = runNode('ask.mjs', { ...env, GATEWAY_URL: gateway.url, GATEWAY_TOKEN: gateway.agentToken });
    const { question } = await requested;
    expect(question.questions[0]?.question).toBe('Where should I deploy?');
    await gateway.operator.request('question.resolve', { id: question.id, answers: { deploy_target: ['Production'] } });
    const { code, stdout, stderr } = await child;
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual({ status: 'answered', answers: { answers: { deploy_target: ['Production'] } } });

    // X4: the Agent SDK callback ships beside it, on a subpath, and loads without the Agent SDK installed.
    writeFileSync(join(project, 'can-use-tool.mjs'), `import { askdockCanUseTool } from 'askdock/claude-agent-sdk';\nprocess.stdout.write(typeof askdockCanUseTool);\n`);
    const callback = await runNode('can-use-tool.mjs', env);
    expect(callback.stderr).toBe('');
    expect(callback.stdout).toBe('function');

    // TypeScript resolves the types through `exports` (no skipLibCheck: the shipped declarations themselves must check).
    writeFileSync(join(project, 'ask.ts'), TYPED);
    const tsconfig = { compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noEmit: true, types: [] }, files: ['ask.ts'] };
    writeFileSync(join(project, 'tsconfig.json'), JSON.stringify(tsconfig));
    await expect(run(TSC, ['-p', 'tsconfig.json', '--noEmit'], { cwd: project, env })).resolves.toBeDefined();
    writeFileSync(join(project, 'wrong.ts'), `import { connect } from 'askdock';\nconst n: number = connect;\nexport { n };\n`);
    writeFileSync(join(project, 'tsconfig.json'), JSON.stringify({ ...tsconfig, files: ['wrong.ts'] }));
    await expect(run(TSC, ['-p', 'tsconfig.json', '--noEmit'], { cwd: project, env })).rejects.toMatchObject({ stdout: expect.stringContaining('wrong.ts') });
  });
});
