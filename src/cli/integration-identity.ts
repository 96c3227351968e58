/**
 * T6/A6: the agent identity that Claude Code, Codex and MCP clients connect as in the quick start (`askdock hook`,
 * `askdock mcp`, `askdock mcp-proxy`, `askdock ask`), apart from the demo agent's: their sessions are bound to it, so
 * the demo agent never sees them (it answers only its own sessions), and they do not open with the demo's greeting.
 * `askdock start` adds it to ./.askdock/identities.json on first use (also to one made before it existed).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { GatewayConfig } from '../gateway/config.ts';
import { loadOrCreateIdentities, randomToken } from '../gateway/auth.ts';
import { INTEGRATION_AGENT_ID } from './endpoint.ts';

/** The integrations identity's token in `file` (the generated identities beside the database), added when missing. */
export function ensureIntegrationIdentity(dbPath: string): { token: string; added: boolean; file: string } {
  const { file } = loadOrCreateIdentities(dbPath);
  const raw = JSON.parse(readFileSync(file, 'utf8')) as GatewayConfig;
  const found = raw.identities.find((i) => i.id === INTEGRATION_AGENT_ID);
  if (found) {
    if (found.role !== 'agent' || !found.token) throw new Error(`${file}: identity "${INTEGRATION_AGENT_ID}" must be an agent with a token (it is what askdock hook, mcp and mcp-proxy connect as)`);
    return { token: found.token, added: false, file };
  }
  const token = randomToken();
  const config = { ...raw, identities: [...raw.identities, { id: INTEGRATION_AGENT_ID, token, role: 'agent' as const, scopes: ['agent.run' as const, 'agent.secrets' as const] }] };
  GatewayConfig.parse(config);
  writeFileSync(file, JSON.stringify(config, null, 2) + '\n', { mode: 0o600 });
  return { token, added: true, file };
}
