import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { formatPath, type Role, type Scope } from '../protocol/index.ts';
import { parseChannels } from './channels/config.ts';
import { GatewayConfig, type IdentityConfig } from './config.ts';

/** An authenticated caller: the config identity with its scopes as a set. */
export type Identity = { id: string; role: Role; scopes: ReadonlySet<Scope> };

/** A config that cannot be used; the message names the file and the field at fault. */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

/** Parses a config object (A1), naming every field at fault and duplicate ids or tokens. */
export function parseConfig(raw: unknown, where: string): GatewayConfig {
  const parsed = GatewayConfig.safeParse(raw);
  if (!parsed.success) {
    const rows = parsed.error.issues.map((i) => `${formatPath(i.path)}: ${i.message}`);
    throw new ConfigError(`${where}: ${rows.join('; ')}`);
  }
  const ids = new Set<string>();
  const tokens = new Set<string>();
  parsed.data.identities.forEach((identity, i) => {
    if (ids.has(identity.id)) throw new ConfigError(`${where}: identities[${i}].id: "${identity.id}" is used twice`);
    const hash = tokenHash(identity).toString('hex');
    if (tokens.has(hash)) throw new ConfigError(`${where}: identities[${i}].token: the same token is used twice`);
    ids.add(identity.id);
    tokens.add(hash);
  });
  const channels = parseChannels(parsed.data.channels, ids);
  if (!channels.ok) throw new ConfigError(`${where}: ${channels.problems.join('; ')}`);
  return parsed.data;
}

/** Reads `--config FILE`: not found, not JSON and bad fields are each a ConfigError naming the cause. */
export function loadConfig(file: string): GatewayConfig {
  const path = resolve(file);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new ConfigError(`config ${path}: cannot read it (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new ConfigError(`config ${path}: not valid JSON (${(err as Error).message})`);
  }
  return parseConfig(raw, `config ${path}`);
}

export function randomToken(): string {
  return randomBytes(24).toString('base64url');
}

/** A1 without a config file: one admin operator and one agent, with fresh random tokens. */
export function defaultIdentities(): GatewayConfig {
  return {
    identities: [
      { id: 'operator', token: randomToken(), role: 'operator', scopes: ['operator.admin'] },
      { id: 'agent', token: randomToken(), role: 'agent', scopes: ['agent.run'] },
    ],
  };
}

export function identitiesFileFor(dbPath: string): string {
  return join(dirname(resolve(dbPath)), 'identities.json');
}

/**
 * A1: reuses `identities.json` beside the database, or creates it (mode 0600) with default identities.
 * `askdock start` reads the agent token from the same file.
 */
export function loadOrCreateIdentities(dbPath: string): { config: GatewayConfig; file: string; created: boolean } {
  const file = identitiesFileFor(dbPath);
  if (existsSync(file)) return { config: loadConfig(file), file, created: false };
  const config = defaultIdentities();
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(config, null, 2) + '\n', { mode: 0o600, flag: 'wx' });
  return { config, file, created: true };
}

const digest = (token: string) => createHash('sha256').update(token, 'utf8').digest();

/** The SHA-256 an identity is known by: of its token, or the `tokenSha256` the config gives instead (S4). */
function tokenHash(entry: IdentityConfig): Buffer {
  return entry.tokenSha256 !== undefined ? Buffer.from(entry.tokenSha256, 'hex') : digest(entry.token ?? '');
}

/**
 * S4: compares the hash of the offered token with every identity's, each in constant time and without stopping at a
 * match, so how long it takes says nothing about any token.
 */
export class Authenticator {
  private readonly entries: { hash: Buffer; identity: Identity }[];

  constructor(config: GatewayConfig) {
    this.entries = config.identities.map((entry) => ({
      hash: tokenHash(entry),
      identity: { id: entry.id, role: entry.role, scopes: new Set(entry.scopes) },
    }));
  }

  authenticate(token: string): Identity | undefined {
    const hash = digest(token);
    let found: Identity | undefined;
    for (const entry of this.entries) if (timingSafeEqual(entry.hash, hash) && !found) found = entry.identity;
    return found;
  }
}
