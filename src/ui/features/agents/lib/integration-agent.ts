import { INTEGRATION_AGENT_ID } from '../../../../protocol/identities.ts';
import type { ConnectInfo } from '../api/get-connect-info.ts';

type ConnectAgentInfo = ConnectInfo['agents'][number];

/**
 * U18/A6: the agent identity Claude Code, Codex and MCP clients should connect as: `integrations` where `askdock start`
 * made it, else the first other agent (one with its token before one the config keeps only hashed). Never the demo
 * agent's: it answers only its own sessions, so an integration on its token would have its sessions echoed by the demo.
 */
export function integrationAgent(agents: readonly ConnectAgentInfo[]): ConnectAgentInfo | undefined {
  const own = agents.find((a) => a.id === INTEGRATION_AGENT_ID);
  if (own) return own;
  const others = agents.filter((a) => !a.demo);
  return others.find((a) => a.token !== null) ?? others[0];
}
