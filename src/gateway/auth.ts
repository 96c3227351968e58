import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { formatPath, type Role, type Scope } from '../protocol/index.ts';
import { parseChannels } from './channels/config.ts';
import { GatewayConfig, MIN_TOKEN_LENGTH, type IdentityConfig } from './config.ts';

/** An authenticated caller: the config identity with its scopes as a set. */
export type Identity = { id: string; role: Role; scopes: ReadonlySet<Scope>; owner?: string; deny?: ReadonlySet<string> };

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

/**
 * A config file that is not JSON at all. Whatever `approvals` or `routing` it was to hold cannot load, so the gateway
 * fails closed as G10/E1 ask of a policy or routing block that does not load (exit 1), not as for a bad field (exit 2).
 */
export class ConfigJsonError extends ConfigError {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigJsonError';
  }
}

/** S4: one line per config token shorter than MIN_TOKEN_LENGTH, naming its field. */
export function shortTokenProblems(config: GatewayConfig): string[] {
  const problems: string[] = [];
  config.identities.forEach((identity, i) => {
    if (identity.token !== undefined && identity.token.length < MIN_TOKEN_LENGTH)
      problems.push(
        `identities[${i}].token: token must be at least ${MIN_TOKEN_LENGTH} characters: make one with \`openssl rand -base64 24\` (or give tokenSha256)`,
      );
  });
  return problems;
}

/**
 * S4 at start: a gateway listening beyond loopback refuses short tokens (anyone on the network could guess them); on a
 * loopback address it starts, and `warn` is told of each one.
 */
export function checkTokenLengths(config: GatewayConfig, where: string, loopback: boolean, warn: (line: string) => void): void {
  const problems = shortTokenProblems(config);
  if (problems.length === 0) return;
  if (!loopback) throw new ConfigError(`${where}: ${problems.join('; ')} (this gateway listens beyond loopback)`);
  for (const problem of problems) warn(`${where}: ${problem} (accepted because this gateway listens on loopback only)`);
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
  checkAgentBindings(parsed.data, where);
  const channels = parseChannels(parsed.data.channels, ids);
  if (!channels.ok) throw new ConfigError(`${where}: ${channels.problems.join('; ')}`);
  return parsed.data;
}

/** A6: `defaultAgent` names an agent identity; an `owner` belongs to an agent and names an operator identity. */
function checkAgentBindings(config: GatewayConfig, where: string): void {
  const roleOf = new Map(config.identities.map((i) => [i.id, i.role]));
  if (config.defaultAgent !== undefined && roleOf.get(config.defaultAgent) !== 'agent')
    throw new ConfigError(`${where}: defaultAgent: "${config.defaultAgent}" is not the id of an agent identity`);
  config.identities.forEach((identity, i) => {
    if (identity.owner === undefined) return;
    if (identity.role !== 'agent') throw new ConfigError(`${where}: identities[${i}].owner: only an agent identity has an owner`);
    if (roleOf.get(identity.owner) !== 'operator')
      throw new ConfigError(`${where}: identities[${i}].owner: "${identity.owner}" is not the id of an operator identity`);
  });
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
    throw new ConfigJsonError(`config ${path}: not valid JSON (${(err as Error).message})`);
  }
  return parseConfig(raw, `config ${path}`);
}

/** What every generated token starts with: never a `-`, so `--token <it>` is never read as another flag. */
export const TOKEN_PREFIX = 'adk_';

/** A fresh token: the prefix and 24 random bytes, base64url (36 characters). */
export function randomToken(): string {
  return `${TOKEN_PREFIX}${randomBytes(24).toString('base64url')}`;
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
  private readonly entries: { hash: Buffer; pushTag: string; identity: Identity }[];
  /** A6: agent identity ids, in config order. */
  readonly agentIds: ReadonlySet<string>;
  /** A6: where a session goes when `sessions.create` names no agent; null when the config has no agent. */
  readonly defaultAgentId: string | null;
  /** U18 "Connect an agent" (operator.admin only): each agent's token, null where the config keeps only its hash. */
  readonly agentTokens: ReadonlyMap<string, string | null>;
  private readonly names: ReadonlyMap<string, string>;

  constructor(config: GatewayConfig) {
    this.names = new Map(config.identities.flatMap((i) => (i.name !== undefined ? [[i.id, i.name] as const] : [])));
    this.entries = config.identities.map((entry) => ({
      hash: tokenHash(entry),
      pushTag: createHash('sha256').update('askdock push subscription\0').update(tokenHash(entry)).digest('base64url'),
      identity: {
        id: entry.id,
        role: entry.role,
        scopes: new Set(entry.scopes),
        ...(entry.owner ? { owner: entry.owner } : {}),
        ...(entry.deny?.length ? { deny: new Set(entry.deny) } : {}),
      },
    }));
    const agents = config.identities.filter((i) => i.role === 'agent').map((i) => i.id);
    this.agentIds = new Set(agents);
    this.agentTokens = new Map(config.identities.filter((i) => i.role === 'agent').map((i) => [i.id, i.token ?? null]));
    this.defaultAgentId = config.defaultAgent ?? agents[0] ?? null;
  }

  /** E1: every identity's id, in config order (routing's `identity:` targets name them). */
  get identityIds(): string[] {
    return this.entries.map((entry) => entry.identity.id);
  }

  /** E8: how a person is named to others: the config's `name`, else the id. */
  displayName(id: string): string {
    return this.names.get(id) ?? id;
  }

  /** The configured identity of this id (U17: whose push subscription it is), or undefined when the config no longer has it. */
  identityById(id: string): Identity | undefined {
    return this.entries.find((entry) => entry.identity.id === id)?.identity;
  }

  /**
   * U17: what a push subscription made by this identity is bound to: a hash of its token's hash (so the store never holds
   * what the config holds). It changes when the token does; undefined when the config no longer has the identity.
   */
  pushTokenTag(id: string): string | undefined {
    return this.entries.find((entry) => entry.identity.id === id)?.pushTag;
  }

  authenticate(token: string): Identity | undefined {
    const hash = digest(token);
    let found: Identity | undefined;
    for (const entry of this.entries) if (timingSafeEqual(entry.hash, hash) && !found) found = entry.identity;
    return found;
  }
}
