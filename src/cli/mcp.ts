import { parseArgs } from 'node:util';
import { serveMcp } from '../agent/mcp-server.ts';
import { resolveEndpoint } from './endpoint.ts';
import { usageError } from './args.ts';

const USAGE = 'usage: askdock mcp [--session KEY] [--url ws://127.0.0.1:7420] [--token T]';

/** `askdock mcp`: the ask_user tool over MCP stdio. Nothing but MCP frames may reach stdout. */
export async function run(argv: string[]): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        session: { type: 'string' },
        url: { type: 'string' },
        token: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
    }));
  } catch (err) {
    return usageError('mcp', err, USAGE);
  }
  if (values.help) {
    process.stderr.write(USAGE + '\n');
    return 0;
  }
  try {
    const endpoint = resolveEndpoint(values);
    return await serveMcp({ ...endpoint, ...(values.session ? { sessionKey: values.session } : {}) });
  } catch (err) {
    return usageError('mcp', err, USAGE);
  }
}
