import type { GatewayConfig } from './config.ts';
import type { Clock } from './infra/clock.ts';
import type { LoginLimit } from './infra/login-guard.ts';
import type { GatewayLog } from './infra/logger.ts';
import type { Rate, RoleRates } from './infra/rate-limit.ts';
import type { Store } from './store/types.ts';

/** What `startGateway` is given (gateway.ts); the config file or object gives the rest. */
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
