/** Where an agent-side command connects: flags, then ASKDOCK_URL / ASKDOCK_TOKEN, then the local `askdock start` setup. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AskdockError, INTEGRATION_AGENT_ID } from '../protocol/index.ts';
import { GatewayConfig } from '../gateway/config.ts';

export const DEFAULT_URL = 'ws://127.0.0.1:7420';
/** `askdock start` keeps its database and identities here, relative to where it runs. */
export const LOCAL_DIR = '.askdock';

export type Endpoint = { url: string; token: string };

/** --url and --token as parseArgs read them, the absent ones left out (resolveEndpoint falls back for those). */
export const endpointFlags = (values: { url?: string; token?: string }): { url?: string; token?: string } => ({
  ...(values.url ? { url: values.url } : {}),
  ...(values.token ? { token: values.token } : {}),
});

/** The agent identity `askdock start` makes for Claude Code, Codex and MCP clients (src/cli/integration-identity.ts). */
export { INTEGRATION_AGENT_ID };

/** Whose token an agent-side command takes from the local setup: the integrations agent's, or the demo agent's. */
export type LocalRole = 'agent' | 'demo-agent' | 'operator';

/** The agent token `askdock start` created in `<cwd>/.askdock/identities.json`, if there is one. */
export function localAgentToken(cwd: string = process.cwd()): string | undefined {
  return localToken('agent', cwd);
}

/**
 * A token of `role` from `<cwd>/.askdock/identities.json`: for `agent` the integrations agent (the first agent before
 * `askdock start` made it), for `demo-agent` the first other agent, for operators the one with operator.admin first.
 */
export function localToken(role: LocalRole, cwd: string = process.cwd()): string | undefined {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(join(cwd, LOCAL_DIR, 'identities.json'), 'utf8'));
  } catch {
    return undefined;
  }
  const parsed = GatewayConfig.safeParse(raw);
  if (!parsed.success) return undefined;
  const ids = parsed.data.identities;
  const agents = ids.filter((i) => i.role === 'agent' && i.scopes.includes('agent.run'));
  if (role === 'agent') return (agents.find((i) => i.id === INTEGRATION_AGENT_ID) ?? agents[0])?.token;
  if (role === 'demo-agent') return agents.find((i) => i.id !== INTEGRATION_AGENT_ID)?.token;
  return (ids.find((i) => i.role === 'operator' && i.scopes.includes('operator.admin')) ?? ids.find((i) => i.role === 'operator'))?.token;
}

/** Resolves url and token; a missing token is an INVALID_REQUEST naming every way to give one. */
export function resolveEndpoint(
  flags: { url?: string; token?: string },
  env: NodeJS.ProcessEnv = process.env,
  cwd: string = process.cwd(),
  role: LocalRole = 'agent',
): Endpoint {
  const url = flags.url || env.ASKDOCK_URL || DEFAULT_URL;
  const token = flags.token || env.ASKDOCK_TOKEN || localToken(role, cwd);
  if (!token) {
    throw new AskdockError(
      'INVALID_REQUEST',
      `--token: no ${role === 'operator' ? 'operator' : 'agent'} token; pass --token T, set ASKDOCK_TOKEN, or run where ./${LOCAL_DIR}/identities.json exists (created by \`askdock start\`)`,
      { details: [{ path: 'token', problem: 'is required' }] },
    );
  }
  // D4: several gateways as `ws://a:7420,ws://b:7420`; each must be an address.
  const parts = url.split(',').map((part) => part.trim());
  for (const part of parts) {
    try {
      const u = new URL(part);
      if (!['ws:', 'wss:', 'http:', 'https:'].includes(u.protocol)) throw new Error(u.protocol);
    } catch {
      throw new AskdockError('INVALID_REQUEST', `--url: "${part}" is not a ws://, wss://, http:// or https:// address`, {
        details: [{ path: 'url', problem: 'must be a ws://, wss://, http:// or https:// URL, or several of them parted by commas' }],
      });
    }
  }
  return { url: parts.join(','), token };
}

/**
 * What to tell a person whose token the gateway refused (UNAUTHORIZED): the setting it came from, which is the one to
 * fix (the wire's own message names the protocol field, which no user sets).
 */
export function refusedTokenMessage(flags: { token?: string }, url: string, env: NodeJS.ProcessEnv = process.env, cwd: string = process.cwd()): string {
  const where = `the gateway at ${url} refused the token`;
  if (flags.token) return `${where} given with --token: pass an agent token there`;
  if (env.ASKDOCK_TOKEN) return `${where} in ASKDOCK_TOKEN: set ASKDOCK_TOKEN to an agent token (or pass --token T)`;
  return `${where} of ${join(cwd, LOCAL_DIR, 'identities.json')}: pass --token T or set ASKDOCK_TOKEN`;
}

/** True for the error a refused token ends a connect with. */
export const isRefusedToken = (err: unknown): boolean => err instanceof AskdockError && err.code === 'UNAUTHORIZED';
