/** The gateway connection `askdock policy` subcommands share: found as `askdock ask` finds it (src/cli/endpoint.ts). */
import { connect, type Agent } from '../agent/sdk.ts';
import { failure, usageError } from './args.ts';
import { isRefusedToken, refusedTokenMessage, resolveEndpoint, type LocalRole } from './endpoint.ts';

/**
 * Runs `use` with a connection as `role` (`agent` for policy.check, `operator` for grants); the exit code: what `use`
 * returns, 2 for a missing token, 1 for an unreachable gateway, a refused token or an error the gateway answered.
 */
export async function withGateway(command: string, usage: string, flags: { url?: string; token?: string }, role: LocalRole, use: (agent: Agent) => Promise<number>): Promise<number> {
  let endpoint;
  try {
    endpoint = resolveEndpoint(flags, process.env, process.cwd(), role);
  } catch (err) {
    return usageError(command, err, usage);
  }
  let agent: Agent;
  try {
    agent = await connect({ ...endpoint, name: `askdock ${command}`, mode: 'cli' });
  } catch (err) {
    if (isRefusedToken(err)) return failure(command, new Error(refusedTokenMessage(flags, endpoint.url)));
    return failure(command, err);
  }
  try {
    return await use(agent);
  } catch (err) {
    return failure(command, err);
  } finally {
    agent.close();
  }
}
