/** Where an agent-side command connects: flags, then ASKDOCK_URL / ASKDOCK_TOKEN, then the local `askdock start` setup. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AskdockError } from '../protocol/index.ts';
import { GatewayConfig } from '../gateway/config.ts';

export const DEFAULT_URL = 'ws://127.0.0.1:7420';
/** `askdock start` keeps its database and identities here, relative to where it runs. */
export const LOCAL_DIR = '.askdock';

export type Endpoint = { url: string; token: string };

/** The agent token `askdock start` created in `<cwd>/.askdock/identities.json`, if there is one. */
export function localAgentToken(cwd: string = process.cwd()): string | undefined {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(join(cwd, LOCAL_DIR, 'identities.json'), 'utf8'));
  } catch {
    return undefined;
  }
  const parsed = GatewayConfig.safeParse(raw);
  if (!parsed.success) return undefined;
  return parsed.data.identities.find((i) => i.role === 'agent' && i.scopes.includes('agent.run'))?.token;
}

/** Resolves url and token; a missing token is an INVALID_REQUEST naming every way to give one. */
export function resolveEndpoint(
  flags: { url?: string; token?: string },
  env: NodeJS.ProcessEnv = process.env,
  cwd: string = process.cwd(),
): Endpoint {
  const url = flags.url || env.ASKDOCK_URL || DEFAULT_URL;
  const token = flags.token || env.ASKDOCK_TOKEN || localAgentToken(cwd);
  if (!token) {
    throw new AskdockError(
      'INVALID_REQUEST',
      `--token: no agent token; pass --token T, set ASKDOCK_TOKEN, or run where ./${LOCAL_DIR}/identities.json exists (created by \`askdock start\`)`,
      { details: [{ path: 'token', problem: 'is required' }] },
    );
  }
  try {
    const u = new URL(url);
    if (!['ws:', 'wss:', 'http:', 'https:'].includes(u.protocol)) throw new Error(u.protocol);
  } catch {
    throw new AskdockError('INVALID_REQUEST', `--url: "${url}" is not a ws://, wss://, http:// or https:// address`, {
      details: [{ path: 'url', problem: 'must be a ws://, wss://, http:// or https:// URL' }],
    });
  }
  return { url, token };
}
