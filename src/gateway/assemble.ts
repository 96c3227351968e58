/**
 * What the gateway is assembled from, read before anything listens: the store, the identities (A1), the approval policy
 * (G10), routing (E1), the secrets key (K1), the audit log's keys (L3) and the public address. The only place besides
 * gateway.ts that asks which store engine runs.
 */
import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { GatewayConfig } from './config.ts';
import type { GatewayOptions } from './gateway-options.ts';
import { ConfigError, checkTokenLengths, defaultIdentities, loadConfig, loadOrCreateIdentities, parseConfig } from './auth.ts';
import type { Clock } from './infra/clock.ts';
import type { GatewayLog } from './infra/logger.ts';
import { isLoopbackHost } from './net/http-security.ts';
import { createMemoryStore } from './store/memory.ts';
import { isSharedStore, openPostgresStore } from './store/postgres/store.ts';
import { checkSharedSecretKey } from './secrets/shared-key.ts';
import { SecretBox, secretKeyFileFor } from './secrets/secret-box.ts';
import { openSqliteStore } from './store/sqlite.ts';
import type { Store } from './store/types.ts';
import { loadRouting } from './routing/routing-load.ts';
import type { RoutingConfig } from '../routing/index.ts';
import { PolicySource } from './policy/policy-source.ts';
import { auditSetup, type AuditSetup } from './audit/audit-keys.ts';

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

/** Opens the store (or takes the one given): `owned` says whether the gateway closes it. */
export async function openStore(opts: GatewayOptions): Promise<{ store: Store; owned: boolean }> {
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

/** The gateway's identities and where they came from. */
export type Identities = Awaited<ReturnType<typeof resolveIdentities>>;

/** What the config and the options settle before the gateway is built. */
export type Settings = {
  identities: Identities;
  approvals: PolicySource;
  routing: RoutingConfig;
  secretBox: SecretBox;
  audit: AuditSetup;
  publicUrl: string | undefined;
};

/** Reads the settings; on any failure an owned store is closed before the error is thrown. */
export async function loadSettings(opts: GatewayOptions, store: Store, owned: boolean, host: string, clock: Clock, log: GatewayLog): Promise<Settings> {
  try {
    const identities = await resolveIdentities(opts, store);
    checkTokenLengths(identities.config, identities.where, isLoopbackHost(host), (line) => log.warn(line));
    // G10: a policy that does not load stops the start (PolicyLoadError), naming the file, the place and the problem.
    const approvals = PolicySource.load(identities.config.approvals, opts.configPath ? { configFile: opts.configPath } : {}, clock, log);
    // E1: so does a routing block that does not validate (RoutingLoadError), with every fault's path.
    const routing = loadRouting(identities.config.routing, identities.config.identities.map((i) => i.id), opts.configPath ? { configFile: opts.configPath } : {});
    const secretBox = await secretBoxFor(opts, store, log);
    const audit: AuditSetup =
      opts.auditSigning === false
        ? { keys: null, origin: 'askdock.local/audit', why: 'signing turned off' }
        : await auditSetup(identities.config.audit, secretKeyFileOf(opts), new Date(clock.now()), log, isSharedStore(store) ? { store, box: secretBox } : undefined);
    const publicUrl = publicUrlOf(opts.publicUrl, identities.config.publicUrl);
    return { identities, approvals, routing, secretBox, audit, publicUrl };
  } catch (err) {
    if (owned) await store.close();
    throw err;
  }
}
