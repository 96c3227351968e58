import { runMcpProxy } from '../agent/mcp-proxy.ts';
import { resolveEndpoint } from './endpoint.ts';
import { clientFlags, failure, usageError } from './args.ts';
import { watchCaller } from './caller-gone.ts';

const USAGE = 'usage: askdock mcp-proxy [--approve] [--name SERVER] [--session KEY] [--url ws://127.0.0.1:7420] [--token T] -- COMMAND [ARGS...]';

/** `askdock mcp-proxy [--approve] -- COMMAND ARGS` (X5; --approve: G4, every tools/call decided by the approval policy). Nothing but MCP frames may reach stdout; ends with the wrapped server's exit code. */
export async function run(argv: string[]): Promise<number> {
  const split = argv.indexOf('--');
  const own = split >= 0 ? argv.slice(0, split) : argv;
  const command = split >= 0 ? argv.slice(split + 1) : [];
  const values = clientFlags('mcp-proxy', own, USAGE, { approve: { type: 'boolean' }, name: { type: 'string' } }, process.stderr);
  if (typeof values === 'number') return values;
  if (command.length === 0) return usageError('mcp-proxy', new Error('the server to wrap is missing: askdock mcp-proxy -- COMMAND [ARGS...]'), USAGE);
  // X5: without a token or a usable address the server is still relayed (its tools work); only its elicitations
  // cannot be asked in askdock, and each is answered `cancel` with a note on stderr (as the hook falls back).
  let endpoint: { url: string; token: string; unavailable?: string };
  try {
    endpoint = resolveEndpoint(values);
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    process.stderr.write(`askdock mcp-proxy: ${why}\naskdock mcp-proxy: relaying the server without askdock: its elicitations are answered cancel\n`);
    endpoint = { url: values.url ?? '', token: '', unavailable: `askdock is not set up (${why})` };
    if (values.approve) process.stderr.write('askdock mcp-proxy: --approve: every tools/call is refused until askdock is set up\n');
  }
  // X6: a wrapper killed without passing the signal on (npx, sh -c) leaves the client gone: withdraw and stop.
  const gone = new AbortController();
  const caller = watchCaller((why) => {
    process.stderr.write(`askdock mcp-proxy: ${why}; withdrawing what is being asked\n`);
    gone.abort();
  });
  try {
    return await runMcpProxy({ ...endpoint, command: command[0], args: command.slice(1), signal: gone.signal, ...(values.approve ? { approve: true } : {}), ...(typeof values.name === 'string' && values.name.trim() ? { serverName: values.name.trim() } : {}), ...(values.session ? { sessionKey: values.session } : {}) });
  } catch (err) {
    return failure('mcp-proxy', err);
  } finally {
    caller.stop();
  }
}
