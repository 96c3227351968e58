import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_URL, localAgentToken, localToken, refusedTokenMessage, resolveEndpoint } from './endpoint.ts';
import { ensureIntegrationIdentity } from './integration-identity.ts';

let cwd: string;
beforeEach(() => {
  cwd = mkdtempSync(join(tmpdir(), 'askdock-endpoint-'));
});
afterEach(() => rmSync(cwd, { recursive: true, force: true }));

function writeIdentities() {
  mkdirSync(join(cwd, '.askdock'));
  writeFileSync(
    join(cwd, '.askdock', 'identities.json'),
    JSON.stringify({
      identities: [
        { id: 'operator', token: 'operator-token-0123456789ab', role: 'operator', scopes: ['operator.admin'] },
        { id: 'agent', token: 'agent-token-0123456789abcd', role: 'agent', scopes: ['agent.run'] },
      ],
    }),
  );
}

describe('resolveEndpoint', () => {
  it('[A1] prefers flags, then ASKDOCK_URL / ASKDOCK_TOKEN, then ./.askdock/identities.json', () => {
    writeIdentities();
    expect(localAgentToken(cwd)).toBe('agent-token-0123456789abcd');
    expect(resolveEndpoint({}, {}, cwd)).toEqual({ url: DEFAULT_URL, token: 'agent-token-0123456789abcd' });
    const env = { ASKDOCK_URL: 'ws://gw:1/ws', ASKDOCK_TOKEN: 'env-token-123' };
    expect(resolveEndpoint({}, env, cwd)).toEqual({ url: 'ws://gw:1/ws', token: 'env-token-123' });
    expect(resolveEndpoint({ url: 'http://h:2', token: 'flag-token-1' }, env, cwd)).toEqual({ url: 'http://h:2', token: 'flag-token-1' });
  });

  it('names --token when no token is found, and --url when it is not a ws or http address', () => {
    expect(() => resolveEndpoint({}, {}, cwd)).toThrow(/^--token: no agent token/);
    expect(() => resolveEndpoint({ url: 'ftp://x', token: 't-12345678' }, {}, cwd)).toThrow(/^--url: "ftp:\/\/x"/);
    expect(() => resolveEndpoint({ url: 'not a url', token: 't-12345678' }, {}, cwd)).toThrow(/^--url/);
  });

  it('[D4] takes several gateways from ASKDOCK_URL parted by commas, and names a bad one', () => {
    expect(resolveEndpoint({ token: 'agent-token-12345' }, { ASKDOCK_URL: 'ws://a:7420, ws://b:7420' }, cwd).url).toBe('ws://a:7420,ws://b:7420');
    expect(() => resolveEndpoint({ token: 'agent-token-12345' }, { ASKDOCK_URL: 'ws://a:7420,b:7420' }, cwd)).toThrow(/"b:7420"/);
  });
});

describe('refusedTokenMessage', () => {
  it('[X1] names where the refused token came from: --token, then ASKDOCK_TOKEN, then the local identities file', () => {
    const url = 'ws://127.0.0.1:7420';
    expect(refusedTokenMessage({ token: 't' }, url, { ASKDOCK_TOKEN: 'e' }, cwd)).toContain('refused the token given with --token');
    expect(refusedTokenMessage({}, url, { ASKDOCK_TOKEN: 'e' }, cwd)).toContain('refused the token in ASKDOCK_TOKEN: set ASKDOCK_TOKEN');
    expect(refusedTokenMessage({}, url, {}, cwd)).toBe(`the gateway at ${url} refused the token of ${join(cwd, '.askdock', 'identities.json')}: pass --token T or set ASKDOCK_TOKEN`);
  });
});

describe('the integrations agent (A6, T6)', () => {
  it('[A6] askdock start adds it once to an existing identities file; agent commands take its token, askdock demo-agent the demo agent\'s', () => {
    writeIdentities();
    const db = join(cwd, '.askdock', 'askdock.db');
    const made = ensureIntegrationIdentity(db);
    expect(made).toMatchObject({ added: true });
    expect(ensureIntegrationIdentity(db)).toEqual({ ...made, added: false });
    expect(localAgentToken(cwd)).toBe(made.token);
    expect(resolveEndpoint({}, {}, cwd).token).toBe(made.token);
    expect(localToken('demo-agent', cwd)).toBe('agent-token-0123456789abcd');
    expect(resolveEndpoint({}, {}, cwd, 'demo-agent').token).toBe('agent-token-0123456789abcd');
  });
});
