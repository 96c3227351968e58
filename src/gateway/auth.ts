import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { formatPath, type Role, type Scope } from '../protocol/index.ts';
import { parseChannels } from './channels/config.ts';
import { GatewayConfig } from './config.ts';

/** An authenticated caller: the config identity with its scopes as a set. */
export type Identity = { id: string; role: Role; scopes: ReadonlySet<Scope>; deny?: ReadonlySet<string> };

/** RU1: an identity whose config denies the ask_user tool may not ask (questions, and secrets through the same tool family). */
export function deniesAskUser(identity: Identity): boolean {
  return identity.deny?.has('ask_user') === true;
}

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
    if (tokens.has(identity.token)) throw new ConfigError(`${where}: identities[${i}].token: the same token is used twice`);
    ids.add(identity.id);
    tokens.add(identity.token);
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
      { id: 'agent', token: randomToken(), role: 'agent', scopes: ['agent.run', 'agent.secrets'] },
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

const digest = (token: string) => createHash('sha256').update(token).digest();

/** Looks tokens up by their hash and compares in constant time, so timing says nothing about a token. */
export class Authenticator {
  private readonly byHash = new Map<string, { hash: Buffer; identity: Identity }>();

  constructor(config: GatewayConfig) {
    for (const entry of config.identities) {
      const hash = digest(entry.token);
      this.byHash.set(hash.toString('hex'), {
        hash,
        identity: {
          id: entry.id,
          role: entry.role,
          scopes: new Set(entry.scopes),
          ...(entry.deny?.length ? { deny: new Set(entry.deny) } : {}),
        },
      });
    }
  }

  authenticate(token: string): Identity | undefined {
    const hash = digest(token);
    const hit = this.byHash.get(hash.toString('hex'));
    return hit && timingSafeEqual(hit.hash, hash) ? hit.identity : undefined;
  }
}
