import { mkdirSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { WebSocketServer } from 'ws';
import { CloseCode } from '../protocol/index.ts';
import { Channels } from './channels/channels.ts';
import type { PushService } from './push/push-service.ts';
import { parseChannels } from './channels/config.ts';
import { questionPageAddress } from './channels/render.ts';
import { GatewayConfig } from './config.ts';
import { Authenticator, ConfigError, checkTokenLengths, defaultIdentities, loadConfig, loadOrCreateIdentities, parseConfig } from './auth.ts';
import { realClock, type Clock, type TimerHandle } from './infra/clock.ts';
import { Connection, type ConnectionOptions } from './net/connection.ts';
import { Core } from './core.ts';
import { createHttpHandler } from './net/http.ts';
import { answerClientError, clientAddress, endRaw, hostAllowed, hostRefusal, isLoopbackHost, originAllowed, originRefusal, rawRefusal, trustedProxySet, type ReachPolicy } from './net/http-security.ts';
import { createMemoryStore } from './store/memory.ts';
import { isSharedStore, openPostgresStore } from './store/postgres/store.ts';
import { checkSharedSecretKey } from './secrets/shared-key.ts';
import { SecretBox, secretKeyFileFor } from './secrets/secret-box.ts';
import { openSqliteStore } from './store/sqlite.ts';
import type { Store } from './store/types.ts';
import { DEFAULT_LOGIN_LIMIT, LoginGuard, type LoginLimit } from './infra/login-guard.ts';
import { frameRate, requestRates, RequestLimiter, type Rate, type RoleRates } from './infra/rate-limit.ts';
import { Turn } from './hub/turn.ts';
import { textFrame } from './hub/wire.ts';
import { createLogger, type GatewayLog } from './infra/logger.ts';
import { loadRouting } from './routing/routing-load.ts';
import type { RoutingConfig } from '../routing/index.ts';
import { PolicySource } from './policy/policy-source.ts';
import { auditKeysRoute, auditSetup, type AuditSetup } from './audit/audit-keys.ts';

export const DEFAULT_MAX_PAYLOAD = 1024 * 1024;
export const DEFAULT_TICK_INTERVAL_MS = 15_000;
export const DEFAULT_HANDSHAKE_TIMEOUT_MS = 10_000;
export const DEFAULT_REQUESTER_GRACE_MS = 30_000;
/** S6: unsent data a connection may pile up before it is closed with 1008. */
export const DEFAULT_MAX_BUFFERED_BYTES = 8 * 1024 * 1024;
/** Bad frames a socket may send before `connect` before it is closed. */
export const DEFAULT_MAX_BAD_FRAMES_BEFORE_CONNECT = 100;
/** Pending questions one agent identity may hold at once. */
export const DEFAULT_MAX_PENDING_QUESTIONS = 1000;

export type GatewayOptions = {
  /** L3: false leaves the audit log unsigned (L8: entries kept, no checkpoints, no receipts); default: signed. */
  auditSigning?: boolean;
  host?: string;
  port?: number;
  /** SQLite file (its directory also holds `identities.json` when no config is given), or a `postgres://` URL (D1). */
  dbPath?: string;
  /** A store to use instead of opening one; the caller keeps ownership (close() leaves it open). */
  store?: Store;
  configPath?: string;
  /** A config object instead of a file (tests). */
  config?: GatewayConfig;
  uiDir?: string;
  clock?: Clock;
  tickIntervalMs?: number;
  requesterGraceMs?: number;
  maxPayload?: number;
  /** Requests per identity across its connections: one rate for every role, or per role (defaults DEFAULT_REQUEST_LIMITS). */
  rateLimit?: Rate | Partial<RoleRates>;
  /** Frames per connection before parsing (default: DEFAULT_FRAME_LIMIT, never tighter than twice the request limit). */
  frameLimit?: Rate;
  /** S4 failed connects per remote address (default DEFAULT_LOGIN_LIMIT). */
  loginLimit?: LoginLimit;
  maxBadFramesBeforeConnect?: number;
  /** S6 (default 8 MiB). */
  maxBufferedBytes?: number;
  /** Pending questions per agent identity (default DEFAULT_MAX_PENDING_QUESTIONS). */
  maxPendingQuestions?: number;
  handshakeTimeoutMs?: number;
  /**
   * K1: the secrets key file (default: `secrets.key` beside the SQLite file; on PostgreSQL beside `configPath`; a key
   * in memory without either). Every gateway on one PostgreSQL database needs the same key: a different one refuses to start.
   */
  secretKeyFile?: string;
  /** Added to the config's `allowedOrigins` (S1). */
  allowedOrigins?: string[];
  /** Added to the config's `allowedHosts` (S3). */
  allowedHosts?: string[];
  /** The address people reach the gateway at (`--public-url`); overrides the config's `publicUrl`. */
  publicUrl?: string;
  /** Validates every outgoing frame, event and result against the protocol (tests; `askdock gateway` with ASKDOCK_CHECK_FRAMES=1). */
  checkFrames?: boolean;
  /** An fsync per SQLite commit (`ASKDOCK_SYNC=FULL` for `askdock gateway`). */
  syncFull?: boolean;
  /** Structured log lines (logger.ts); JSON on stderr when not given. */
  log?: GatewayLog;
  /** Status lines for the person running it (`askdock channel telegram ready`); the commands print them on stdout, else they go to `log`. */
  announce?: (line: string) => void;
  /** U17: added to the config's `push.allowedEndpoints` (tests, a self-hosted push service). */
  pushAllowedEndpoints?: string[];
  /** U17: tries per push and the longest wait between them. */
  pushRetry?: { attempts?: number; maxRetryDelayMs?: number };
  /** Retry pacing of the channels' posts and reconnects (tests make it quick). */
  channelRetry?: { baseDelayMs?: number; maxDelayMs?: number };
};

export type RunningGateway = {
  /** `http://H:N` */
  url: string;
  /** `ws://H:N/ws` */
  wsUrl: string;
  /** Where links point: the configured `publicUrl` (no trailing slash), else `url`. */
  publicUrl: string;
  port: number;
  host: string;
  identities: GatewayConfig;
  /** Set when identities were generated on this start (A1): callers print the operator link. */
  identitiesCreated: boolean;
  identitiesFile?: string;
  store: Store;
  /** The configured chat channels (H1), connecting in the background. */
  channels: Channels;
  /** U17: Web Push (`idle()` settles once every push started has ended). */
  push: PushService;
  /** L3/L8: the audit log's keys, or why it is unsigned. */
  audit: AuditSetup;
  close(): Promise<void>;
};

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** `--public-url` over the config's `publicUrl`, checked like the config key, without a trailing slash. */
function publicUrlOf(flag: string | undefined, configured: string | undefined): string | undefined {
  if (flag === undefined) return configured?.replace(/\/+$/, '');
  const parsed = GatewayConfig.shape.publicUrl.safeParse(flag);
  if (!parsed.success) throw new ConfigError(`--public-url: ${parsed.error.issues[0]?.message ?? 'not an http(s) address'}`);
  return parsed.data?.replace(/\/+$/, '');
}

export function urlHost(host: string): string {
  return host.includes(':') ? `[${host}]` : host;
}

/** D1: `--db postgres://user:pass@host:port/db` (or `postgresql://`) stores everything in PostgreSQL. */
export function isPostgresUrl(db: string | undefined): db is string {
  return db !== undefined && /^postgres(ql)?:\/\//i.test(db);
}

/** The gateway's identities (A1), with where they came from (`where`, as errors name it). */
async function resolveIdentities(opts: GatewayOptions, store: Store): Promise<{ config: GatewayConfig; created: boolean; file?: string; where: string }> {
  if (opts.configPath) {
    const file = resolve(opts.configPath);
    return { config: loadConfig(opts.configPath), created: false, file, where: `config ${file}` };
  }
  if (opts.config) return { config: parseConfig(opts.config, 'config'), created: false, where: 'config' };
  if (isPostgresUrl(opts.dbPath)) return { ...(await identitiesInDatabase(store)), where: IDENTITIES_IN_DATABASE };
  if (opts.dbPath && opts.dbPath !== ':memory:') {
    const saved = loadOrCreateIdentities(opts.dbPath);
    return { ...saved, where: `config ${resolve(saved.file)}` };
  }
  return { config: defaultIdentities(), created: true, where: 'config' };
}

const IDENTITIES_META = 'identities';
const IDENTITIES_IN_DATABASE = 'identities in the database';

/** A1 on PostgreSQL: the generated identities live "beside the database", in it, so every gateway on it accepts the same tokens. */
async function identitiesInDatabase(store: Store): Promise<{ config: GatewayConfig; created: boolean }> {
  return await store.transaction(async () => {
    const saved = await store.getMeta(IDENTITIES_META);
    if (saved !== undefined) return { config: parseConfig(JSON.parse(saved), IDENTITIES_IN_DATABASE), created: false };
    const config = defaultIdentities();
    await store.setMeta(IDENTITIES_META, JSON.stringify(config));
    return { config, created: true };
  });
}

async function openStore(opts: GatewayOptions): Promise<{ store: Store; owned: boolean }> {
  if (opts.store) return { store: opts.store, owned: false };
  if (!opts.dbPath) return { store: createMemoryStore(), owned: true };
  if (isPostgresUrl(opts.dbPath)) return { store: await openPostgresStore(opts.dbPath), owned: true };
  if (opts.dbPath !== ':memory:') mkdirSync(dirname(resolve(opts.dbPath)), { recursive: true });
  // Checkpoints run on their own thread: inline, one in a hundred commits stalled every connection for milliseconds.
  return { store: openSqliteStore(opts.dbPath, { checkpointInBackground: true, syncFull: opts.syncFull, exclusive: true }), owned: true };
}

/** The key file K1 uses, or none (a key in memory). */
function secretKeyFileOf(opts: GatewayOptions): string | undefined {
  if (opts.secretKeyFile) return opts.secretKeyFile;
  if (isPostgresUrl(opts.dbPath)) return opts.configPath ? secretKeyFileFor(opts.configPath) : undefined;
  if (opts.dbPath && opts.dbPath !== ':memory:') return secretKeyFileFor(opts.dbPath);
  return undefined;
}

async function secretBoxFor(opts: GatewayOptions, store: Store, log: GatewayLog): Promise<SecretBox> {
  const file = secretKeyFileOf(opts);
  if (!file) {
    if (isSharedStore(store))
      log.warn('no secrets key file: secrets stored through this gateway can be read through it alone, until it stops; give every gateway the same --secrets-key FILE');
    return SecretBox.ephemeral();
  }
  const box = SecretBox.fromKeyFile(file);
  if (isSharedStore(store)) await checkSharedSecretKey(store, box, resolve(file));
  return box;
}

/** Starts the gateway: HTTP (health, UI) and the protocol on `/ws`, on one port. */
export async function startGateway(opts: GatewayOptions = {}): Promise<RunningGateway> {
  const host = opts.host ?? '127.0.0.1';
  const clock = opts.clock ?? realClock;
  const log = opts.log ?? createLogger();
  const { store, owned } = await openStore(opts);
  let identities: Awaited<ReturnType<typeof resolveIdentities>>;
  let secretBox: SecretBox;
  let approvals: PolicySource;
  let routing: RoutingConfig;
  let audit: AuditSetup;
  try {
    identities = await resolveIdentities(opts, store);
    checkTokenLengths(identities.config, identities.where, isLoopbackHost(host), (line) => log.warn(line));
    // G10: a policy that does not load stops the start (PolicyLoadError), naming the file, the place and the problem.
    approvals = PolicySource.load(identities.config.approvals, opts.configPath ? { configFile: opts.configPath } : {}, clock, log);
    // E1: so does a routing block that does not validate (RoutingLoadError), with every fault's path.
    routing = loadRouting(identities.config.routing, identities.config.identities.map((i) => i.id), opts.configPath ? { configFile: opts.configPath } : {});
    secretBox = await secretBoxFor(opts, store, log);
    audit =
      opts.auditSigning === false
        ? { keys: null, origin: 'askdock.local/audit', why: 'signing turned off' }
        : await auditSetup(identities.config.audit, secretKeyFileOf(opts), new Date(clock.now()), log, isSharedStore(store) ? { store, box: secretBox } : undefined);
  } catch (err) {
    if (owned) await store.close();
    throw err;
  }
  let publicUrl: string | undefined;
  try {
    publicUrl = publicUrlOf(opts.publicUrl, identities.config.publicUrl);
  } catch (err) {
    if (owned) await store.close();
    throw err;
  }
  const policy = identities.config.policy ?? {};
  const checkFrames = opts.checkFrames ?? false;
  const turn = new Turn(undefined, isSharedStore(store));
  const rates = requestRates(opts.rateLimit ?? policy.rateLimit);
  const connOpts: ConnectionOptions = {
    handshakeTimeoutMs: opts.handshakeTimeoutMs ?? DEFAULT_HANDSHAKE_TIMEOUT_MS,
    maxPayload: opts.maxPayload ?? policy.maxPayload ?? DEFAULT_MAX_PAYLOAD,
    tickIntervalMs: opts.tickIntervalMs ?? policy.tickIntervalMs ?? DEFAULT_TICK_INTERVAL_MS,
    requests: new RequestLimiter(rates),
    frameRate: frameRate(rates, opts.frameLimit),
    logins: new LoginGuard(opts.loginLimit ?? DEFAULT_LOGIN_LIMIT, () => clock.now()),
    maxBadFramesBeforeConnect: opts.maxBadFramesBeforeConnect ?? DEFAULT_MAX_BAD_FRAMES_BEFORE_CONNECT,
    checkFrames,
    maxBufferedBytes: opts.maxBufferedBytes ?? DEFAULT_MAX_BUFFERED_BYTES,
    turn,
    ...(publicUrl ? { publicUrl } : {}),
  };
  const core = new Core(store, clock, new Authenticator(identities.config), {
    requesterGraceMs: opts.requesterGraceMs ?? DEFAULT_REQUESTER_GRACE_MS,
    maxPendingQuestions: opts.maxPendingQuestions ?? DEFAULT_MAX_PENDING_QUESTIONS,
    checkFrames,
    log,
    turn,
    secretBox,
    approvals,
    routing,
    audit: { keys: audit.keys, origin: audit.origin },
    push: {
      ...identities.config.push,
      allowedEndpoints: [...(identities.config.push?.allowedEndpoints ?? []), ...(opts.pushAllowedEndpoints ?? [])],
      ...(opts.pushRetry ?? {}),
    },
  });

  const channelConfig = parseChannels(identities.config.channels, new Set(identities.config.identities.map((i) => i.id)));
  const channels = await Channels.create(core, identities.config, channelConfig.ok ? channelConfig.channels : {}, {
    log: (line) => log.info(line),
    announce: opts.announce ?? ((line) => log.info(line)),
    checkFrames,
    ...(opts.channelRetry ? { retry: opts.channelRetry } : {}),
    // Read when a question is posted, by then the server listens (its port is known).
    pageUrl: (id) => questionPageAddress((channelConfig.ok ? channelConfig.channels.publicUrl : undefined) ?? publicUrl ?? ownUrl(), id),
    ...(publicUrl ? { publicUrl } : {}),
  });

  const connections = new Set<Connection>();
  const auditKeys = auditKeysRoute(audit);
  // Shared frames are written pre-built under ws (wire.ts), which holds only while no extension is negotiated.
  const wss = new WebSocketServer({ noServer: true, maxPayload: connOpts.maxPayload, perMessageDeflate: false });
  const reach: ReachPolicy = {
    loopback: isLoopbackHost(host),
    allowedHosts: [...(identities.config.allowedHosts ?? []), ...(opts.allowedHosts ?? [])],
    allowedOrigins: [...(identities.config.allowedOrigins ?? []), ...(opts.allowedOrigins ?? [])],
  };
  const trustedProxies = trustedProxySet(identities.config.trustedProxies);
  // Channel webhooks get the same S2 headers and S3 Host check as every other answer.
  const server: Server = createServer(createHttpHandler(opts.uiDir ?? resolve(REPO_ROOT, 'dist'), reach, (req, res) => auditKeys(req, res) || channels.handle(req, res)));
  const ownUrl = () => {
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : (opts.port ?? 7420);
    return `http://${urlHost(host)}:${port}`;
  };
  // S2 on what ws and Node refuse by themselves: a bad handshake (wrong method, version or key), an unreadable request.
  wss.on('wsClientError', (err: Error, socket: Duplex, req: IncomingMessage) => {
    const version = /Sec-WebSocket-Version/.test(err.message) ? { 'sec-websocket-version': '13, 8' } : undefined;
    const status = err.message === 'Invalid HTTP method' ? 405 : 400;
    endRaw(socket, rawRefusal(status, req, `bad WebSocket handshake: ${err.message}`, version));
  });
  server.on('clientError', answerClientError);
  server.on('upgrade', (req, socket: Duplex, head) => {
    const path = (req.url ?? '').split('?')[0];
    if (path !== '/ws') return void socket.end(rawRefusal(404, req, 'not found: the protocol lives at /ws'));
    // S3 before S1: a rebound name is refused whatever page it came from.
    if (!hostAllowed(reach, req.headers.host, req.socket.localPort ?? 0))
      return void socket.end(rawRefusal(421, req, hostRefusal(reach, req.headers.host, req.socket.localPort ?? 0)));
    if (!originAllowed(reach, req.headers.origin, req.headers.host)) {
      log.warn({ origin: req.headers.origin, address: req.socket.remoteAddress }, `refused a WebSocket from origin ${JSON.stringify(req.headers.origin)}: add it to allowedOrigins to let it in`);
      return void socket.end(rawRefusal(403, req, originRefusal(req.headers.origin, req.headers.host)));
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      const address = clientAddress(req.socket.remoteAddress, req.headers['x-forwarded-for'], trustedProxies);
      const conn = new Connection(ws, socket, core, connOpts, (c) => connections.delete(c), address);
      connections.add(conn);
      conn.start();
    });
  });

  try {
    await core.start();
    await new Promise<void>((ok, fail) => {
      server.once('error', fail);
      server.listen(opts.port ?? 7420, host, () => {
        server.off('error', fail);
        ok();
      });
    });
  } catch (err) {
    await core.stop();
    if (owned) await store.close();
    throw err;
  }

  // P6: one gateway-wide tick; a client that hears nothing for two intervals reconnects.
  let tickTimer: TimerHandle | null = null;
  const tick = () => {
    const frame = textFrame(JSON.stringify({ type: 'event', event: 'tick', payload: { ts: clock.now() } }));
    for (const conn of connections) if (conn.isOpen) conn.send(frame);
    tickTimer = clock.setTimeout(tick, connOpts.tickIntervalMs);
  };
  tickTimer = clock.setTimeout(tick, connOpts.tickIntervalMs);
  channels.start();

  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : (opts.port ?? 7420);
  const url = `http://${urlHost(host)}:${port}`;
  let closing: Promise<void> | null = null;

  const close = () =>
    (closing ??= (async () => {
      if (tickTimer) clock.clearTimeout(tickTimer);
      await channels.stop();
      server.close();
      const closed = [...connections].map(
        (conn) =>
          new Promise<void>((done) => {
            const timer = setTimeout(done, 1000);
            connections.delete(conn);
            conn.close(CloseCode.goingAway, 'gateway shutting down');
            conn.whenClosed().then(() => {
              clearTimeout(timer);
              done();
            });
          }),
      );
      await Promise.all(closed);
      for (const client of wss.clients) client.terminate();
      wss.close();
      server.closeAllConnections();
      await core.stop();
      if (owned) await store.close();
    })());

  return {
    url,
    publicUrl: publicUrl ?? url,
    wsUrl: `ws://${urlHost(host)}:${port}/ws`,
    port,
    host,
    identities: identities.config,
    identitiesCreated: identities.created,
    ...(identities.file ? { identitiesFile: identities.file } : {}),
    store,
    channels,
    push: core.push,
    audit,
    close,
  };
}
