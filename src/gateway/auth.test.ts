import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Authenticator, ConfigError, defaultIdentities, loadConfig, loadOrCreateIdentities, randomToken } from './auth.ts';
import { startGateway } from './gateway.ts';
import { TestClient } from '../testing/ws-client.ts';
import { silentLogger } from './infra/logger.ts';

const dirs: string[] = [];
const tmp = () => {
  const d = mkdtempSync(join(tmpdir(), 'askdock-auth-'));
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const configFile = (content: unknown) => {
  const file = join(tmp(), 'config.json');
  writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
  return file;
};

describe('identities', () => {
  it('[A1] generated tokens never start with "-" (so `--token <it>` is never taken for a flag) and are 24+ characters', () => {
    const tokens = [...Array.from({ length: 2000 }, randomToken), ...defaultIdentities().identities.map((i) => i.token!)];
    for (const token of tokens) {
      expect(token).toMatch(/^[A-Za-z0-9]/);
      expect(token.length).toBeGreaterThanOrEqual(24);
    }
    expect(new Set(tokens).size).toBe(tokens.length);
  });

  it('[A1] loads identities from the config file', () => {
    const file = configFile({ identities: [{ id: 'ops', token: 'a-long-token-0123456789abc', role: 'operator', scopes: ['operator.read'] }] });
    const config = loadConfig(file);
    expect(new Authenticator(config).authenticate('a-long-token-0123456789abc')).toEqual({ id: 'ops', role: 'operator', scopes: new Set(['operator.read']) });
    expect(new Authenticator(config).authenticate('a-long-token-0123456789abC')).toBeUndefined();
  });

  it('[A1] config errors name the file and the field at fault', () => {
    expect(() => loadConfig(join(tmp(), 'missing.json'))).toThrow(/missing\.json: cannot read it \(ENOENT\)/);
    expect(() => loadConfig(configFile('{ nope'))).toThrow(/not valid JSON/);
    const bad = configFile({ identities: [{ id: 'a', token: '', role: 'boss', scopes: ['operator.everything'] }] });
    let message = '';
    try {
      loadConfig(bad);
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      message = (err as Error).message;
    }
    expect(message).toContain(bad);
    expect(message).toContain('identities[0].token: token must not be empty');
    expect(message).toContain('identities[0].role');
    expect(message).toContain('identities[0].scopes[0]');
    const twice = configFile({
      identities: [
        { id: 'a', token: 'token-one-0123456789abcdef', role: 'operator', scopes: [] },
        { id: 'a', token: 'token-two-0123456789abcdef', role: 'operator', scopes: [] },
      ],
    });
    expect(() => loadConfig(twice)).toThrow(/identities\[1\]\.id: "a" is used twice/);
    expect(() => loadConfig(configFile({ identities: [] }))).toThrow(/identities: identities must list at least one identity/);
  });

  it('[A1] without a config, creates identities.json beside the database once, private, and reuses it', () => {
    const dir = tmp();
    const db = join(dir, 'nested', 'askdock.db');
    const first = loadOrCreateIdentities(db);
    expect(first.created).toBe(true);
    expect(first.file).toBe(join(dir, 'nested', 'identities.json'));
    expect(first.config.identities.map((i) => [i.id, i.role, i.scopes])).toEqual([
      ['operator', 'operator', ['operator.admin']],
      ['agent', 'agent', ['agent.run', 'agent.secrets']],
    ]);
    expect(statSync(first.file).mode & 0o777).toBe(0o600);
    const again = loadOrCreateIdentities(db);
    expect(again.created).toBe(false);
    expect(again.config).toEqual(first.config);
    expect(JSON.parse(readFileSync(first.file, 'utf8'))).toEqual(first.config);
    const other = loadOrCreateIdentities(join(tmp(), 'askdock.db'));
    expect(other.config.identities[0].token).not.toBe(first.config.identities[0].token);
  });

  it('[A1] a gateway started on a database with no config lets its generated operator and agent in', async () => {
    const dir = tmp();
    const gw = await startGateway({ port: 0, dbPath: join(dir, 'askdock.db'), checkFrames: true, log: silentLogger() });
    try {
      expect(gw.identitiesCreated).toBe(true);
      for (const identity of gw.identities.identities) {
        const c = await TestClient.open(gw.wsUrl);
        const res = await c.connect(identity.token!);
        expect(res.ok).toBe(true);
        expect(c.hello!.auth.identity).toBe(identity.id);
        c.close();
      }
    } finally {
      await gw.close();
    }
    const again = await startGateway({ port: 0, dbPath: join(dir, 'askdock.db'), checkFrames: true, log: silentLogger() });
    expect(again.identitiesCreated).toBe(false);
    await again.close();
  });
});
