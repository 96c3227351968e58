import { serveMcp } from '../agent/mcp-server.ts';
import { resolveEndpoint } from './endpoint.ts';
import { clientFlags, usageError } from './args.ts';

const USAGE = 'usage: askdock mcp [--session KEY] [--url ws://127.0.0.1:7420] [--token T]';

/** `askdock mcp`: the ask_user tool over MCP stdio. Nothing but MCP frames may reach stdout. */
export async function run(argv: string[]): Promise<number> {
  // Help goes to stderr: stdout carries MCP frames only.
  const values = clientFlags('mcp', argv, USAGE, {}, process.stderr);
  if (typeof values === 'number') return values;
  try {
    const endpoint = resolveEndpoint(values);
    return await serveMcp({ ...endpoint, ...(values.session ? { sessionKey: values.session } : {}) });
  } catch (err) {
    return usageError('mcp', err, USAGE);
  }
}
