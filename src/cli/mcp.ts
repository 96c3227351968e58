import { resolve } from 'node:path';
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
    // W4: the model is told to run this very bin, which works from any folder (`npx askdock` would ask the registry).
    const askdockCommand = process.argv[1] ? resolve(process.argv[1]) : undefined;
    return await serveMcp({ ...endpoint, ...(values.session ? { sessionKey: values.session } : {}), ...(askdockCommand ? { askdockCommand } : {}) });
  } catch (err) {
    return usageError('mcp', err, USAGE);
  }
}
