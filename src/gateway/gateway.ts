import { createServer, type Server } from 'node:http';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { WebSocketServer } from 'ws';
import { CloseCode } from '../protocol/index.ts';
import { Channels } from './channels/channels.ts';
import type { PushService } from './push/push-service.ts';
import { parseChannels } from './channels/config.ts';
import { questionPageAddress } from './channels/render.ts';
import type { GatewayConfig } from './config.ts';
import { Authenticator } from './auth.ts';
import { realClock, type TimerHandle } from './infra/clock.ts';
import { Connection, type ConnectionOptions } from './net/connection.ts';
import { Core } from './core.ts';
import { createHttpHandler } from './net/http.ts';
import { isLoopbackHost, trustedProxySet, type ReachPolicy } from './net/http-security.ts';
import { acceptSockets } from './net/upgrade.ts';
import { isSharedStore } from './store/postgres/store.ts';
import type { Store } from './store/types.ts';
import { DEFAULT_LOGIN_LIMIT, LoginGuard } from './infra/login-guard.ts';
import { frameRate, requestRates, RequestLimiter } from './infra/rate-limit.ts';
import { Turn } from './hub/turn.ts';
import { textFrame } from './hub/wire.ts';
import { createLogger } from './infra/logger.ts';
import { auditKeysRoute, type AuditSetup } from './audit/audit-keys.ts';
import { loadSettings, openStore, urlHost } from './assemble.ts';
import type { GatewayOptions } from './gateway-options.ts';

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

export { isPostgresUrl, urlHost } from './assemble.ts';
export type { GatewayOptions } from './gateway-options.ts';

/** Starts the gateway: HTTP (health, UI) and the protocol on `/ws`, on one port. */
export async function startGateway(opts: GatewayOptions = {}): Promise<RunningGateway> {
  const host = opts.host ?? '127.0.0.1';
  const clock = opts.clock ?? realClock;
  const log = opts.log ?? createLogger();
  const { store, owned } = await openStore(opts);
  const { identities, secretBox, approvals, routing, audit, publicUrl } = await loadSettings(opts, store, owned, host, clock, log);
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
  acceptSockets(server, wss, reach, trustedProxies, log, (ws, socket, address) => {
    const conn = new Connection(ws, socket, core, connOpts, (c) => connections.delete(c), address);
    connections.add(conn);
    conn.start();
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
