import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createWriteStream, mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { isPostgresUrl, startGateway, urlHost } from '../gateway/gateway.ts';
import { auditStartLine } from '../gateway/audit/audit-keys.ts';
import { failure, intFlag, usageError } from './args.ts';
import { startDemoAgent, type DemoAgent } from '../agent/demo-agent.ts';
import { INTEGRATION_AGENT_ID, LOCAL_DIR } from './endpoint.ts';
import { ensureIntegrationIdentity } from './integration-identity.ts';
import { gatewayEnvironment } from './gateway-env.ts';
import { DEMO_AGENT_CLIENT_NAME } from '../protocol/index.ts';
import { connect, type Agent } from '../agent/sdk.ts';
import { buildUi, uiBuildReason } from './ui-build.ts';
import { createLogger, prettyLine } from '../gateway/infra/logger.ts';
import { boundHeapGrowth } from '../gateway/infra/heap-growth.ts';

const USAGE = 'usage: askdock start [--port 7420] [--host 127.0.0.1] [--dir ./.askdock] [--db FILE|postgres://…] [--requester-grace S] [--config FILE] [--public-url URL] [--no-open] [--no-build]';
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

function openBrowser(url: string) {
  const [cmd, args] =
    process.platform === 'darwin' ? ['open', [url]] : process.platform === 'win32' ? ['cmd', ['/c', 'start', '', url]] : ['xdg-open', [url]];
  try {
    const child = spawn(cmd, args as string[], { stdio: 'ignore', detached: true });
    child.once('error', () => undefined);
    child.unref();
  } catch {
    // No browser opener here; the address is printed anyway.
  }
}

/** `askdock start`: gateway + built Control UI + demo agent on ./.askdock/, until Ctrl+C. */
export async function run(argv: string[]): Promise<number> {
  let opts;
  try {
    const { values } = parseArgs({
      args: argv,
      options: {
        port: { type: 'string' },
        host: { type: 'string' },
        dir: { type: 'string' },
        db: { type: 'string' },
        'requester-grace': { type: 'string' },
        config: { type: 'string' },
        'public-url': { type: 'string' },
        'no-open': { type: 'boolean' },
        'no-build': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
    });
    if (values.help) {
      process.stdout.write(USAGE + '\n');
      return 0;
    }
    const port = intFlag('--port', values.port, 'a port number 0..65535 (0 picks a free one)') ?? 7420;
    if (port > 65535) throw new Error(`--port: must be a port number 0..65535 (0 picks a free one), got "${values.port}"`);
    // Q7: how long the demo agent (or any asker) may be away before its blocking questions are cancelled (default 30 s).
    const grace = intFlag('--requester-grace', values['requester-grace'], 'a whole number of seconds');
    opts = {
      port,
      host: values.host ?? '127.0.0.1',
      dir: resolve(values.dir ?? LOCAL_DIR),
      db: values.db,
      open: !values['no-open'],
      build: !values['no-build'],
      ...(grace !== undefined ? { requesterGraceMs: grace * 1000 } : {}),
      ...(values.config !== undefined ? { config: resolve(values.config) } : {}),
      ...(values['public-url'] !== undefined ? { publicUrl: values['public-url'] } : {}),
    };
  } catch (err) {
    return usageError('start', err, USAGE);
  }

  // Ctrl+C works at every stage: during the build, while starting and while serving.
  const stopping = new AbortController();
  const stop = () => {
    if (stopping.signal.aborted) process.exit(130);
    stopping.abort();
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  try {
    return await serve(opts, stopping.signal);
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
  }
}

type StartOptions = {
  port: number;
  host: string;
  dir: string;
  db?: string;
  open: boolean;
  build: boolean;
  requesterGraceMs?: number;
  /** A1: the team's identities, hosts and channels instead of generated identities in `dir`. */
  config?: string;
  publicUrl?: string;
};

async function serve(opts: StartOptions, stopping: AbortSignal): Promise<number> {
  const reason = opts.build ? uiBuildReason(ROOT) : null;
  if (reason) {
    process.stderr.write(`askdock start: building the Control UI (${reason})\n`);
    const code = await buildUi(ROOT, stopping);
    if (stopping.aborted) return 0;
    if (code !== 0) process.stderr.write(`askdock start: the UI build failed (exit ${code}); the gateway starts without a fresh UI\n`);
  }

  // The quick start's terminal keeps to its own lines: the gateway's JSON log goes to a file whose path it prints,
  // and only its warnings and errors show here too, as readable lines.
  const logFile = join(opts.dir, 'gateway.log');
  mkdirSync(opts.dir, { recursive: true });
  const logStream = createWriteStream(logFile, { flags: 'a' });
  logStream.on('error', (err) => process.stderr.write(`askdock start: cannot write ${logFile}: ${err.message}\n`));
  const environment = gatewayEnvironment();
  const log = createLogger({
    level: environment.logLevel,
    sink: {
      write: (line: string) => {
        logStream.write(line);
        if (/"level":"(warn|error|fatal)"/.test(line)) process.stderr.write(prettyLine(line, process.stderr.isTTY === true));
      },
    },
  });
  boundHeapGrowth();
  let gateway;
  let integration: { token: string; added: boolean; file: string } | undefined;
  try {
    // T6/A6: Claude Code, Codex and MCP clients get an agent identity of their own, apart from the demo agent's.
    const dbPath = opts.db ?? join(opts.dir, 'askdock.db');
    if (opts.config === undefined && !isPostgresUrl(dbPath)) integration = ensureIntegrationIdentity(dbPath);
    gateway = await startGateway({
      host: opts.host,
      port: opts.port,
      dbPath: opts.db ?? join(opts.dir, 'askdock.db'),
      // K1 on PostgreSQL: the key the other gateways of the database get a copy of (SQLite keeps it beside its file).
      ...(isPostgresUrl(opts.db) ? { secretKeyFile: join(opts.dir, 'secrets.key') } : {}),
      uiDir: join(ROOT, 'dist'),
      ...(opts.requesterGraceMs !== undefined ? { requesterGraceMs: opts.requesterGraceMs } : {}),
      ...(opts.config !== undefined ? { configPath: opts.config } : {}),
      ...(opts.publicUrl !== undefined ? { publicUrl: opts.publicUrl } : {}),
      announce: (line) => process.stdout.write(line + '\n'),
      checkFrames: environment.checkFrames,
      syncFull: environment.syncFull,
      log,
    });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      return failure('start', new Error(`port ${opts.port} on ${opts.host} is in use: stop the other process or pass --port N (0 picks a free one)`));
    }
    return failure('start', err);
  }
  const ids = gateway.identities.identities;
  const operator = ids.find((i) => i.role === 'operator' && i.scopes.includes('operator.admin')) ?? ids.find((i) => i.role === 'operator');
  // An identity given only by tokenSha256 cannot be used by this process: the demo agent needs the token itself.
  // It is never the integrations agent: the demo agent answers only its own sessions.
  const agentIdentity = ids.find((i) => i.role === 'agent' && i.id !== INTEGRATION_AGENT_ID && i.scopes.includes('agent.run') && i.token !== undefined);
  const httpUrl = `http://${urlHost(opts.host)}:${gateway.port}`;
  // A team's config: its people sign in with their own tokens, so no token goes on the screen (as `askdock gateway`).
  const uiUrl = operator?.token && !opts.config ? `${gateway.publicUrl}/?token=${encodeURIComponent(operator.token)}` : gateway.publicUrl;

  let agent: Agent | undefined;
  let demo: DemoAgent | undefined;
  if (agentIdentity) {
    try {
      agent = await connect({ url: gateway.wsUrl, token: agentIdentity.token!, name: DEMO_AGENT_CLIENT_NAME, clientId: demoClientId(opts) });
      demo = await startDemoAgent({ agent });
    } catch (err) {
      process.stderr.write(`askdock start: the demo agent did not start: ${err instanceof Error ? err.message : String(err)}\n`);
    }
  } else {
    process.stderr.write(`askdock start: no agent identity in ${gateway.identitiesFile ?? 'the config'}; the demo agent is not started\n`);
  }

  if (!stopping.aborted) {
    process.stdout.write(`askdock gateway listening on ${httpUrl}\n`);
    // L8: whether decisions get receipts, as `askdock gateway` says it at start.
    process.stdout.write(`${auditStartLine(gateway.audit)}\n`);
    process.stdout.write(`Control UI: ${uiUrl}\n`);
    process.stdout.write(`gateway log: ${logFile}\n`);
    if (integration) process.stdout.write(`agent token for Claude Code, Codex and MCP (agent "${INTEGRATION_AGENT_ID}"${integration.added ? `, new in ${integration.file}` : ''}): ${integration.token}\n`);
    if (opts.open && process.stdout.isTTY && !process.env.CI) openBrowser(uiUrl);
    await new Promise<void>((done) => stopping.addEventListener('abort', () => done(), { once: true }));
  }
  process.stderr.write('askdock start: stopping\n');
  // U11: the gateway goes first, so it records nothing of the demo agent leaving; the demo agent started next time
  // (the same client id, within the requester grace) takes its pending questions back.
  await gateway.close();
  await demo?.close({ keepQuestions: true });
  agent?.close();
  await new Promise<void>((done) => logStream.end(done));
  return 0;
}

/** The demo agent is the same requester (Q7) every time `askdock start` serves the same data: its id comes from where that lives. */
function demoClientId(opts: StartOptions): string {
  const where = opts.db && isPostgresUrl(opts.db) ? opts.db : resolve(opts.db ?? join(opts.dir, 'askdock.db'));
  return `askdock-demo-agent-${createHash('sha256').update(where).digest('hex').slice(0, 24)}`;
}
