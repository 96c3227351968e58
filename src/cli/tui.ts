import { createNodeClient } from '../client/node.ts';
import { clientFlags, failure, usageError } from './args.ts';
import { resolveEndpoint } from './endpoint.ts';
import { startLocalGateway, type LocalGateway } from './tui-local.ts';

const USAGE = 'usage: askdock tui [--url ws://127.0.0.1:7420] [--token T] [--session KEY] [--local]';

/** `askdock tui`: the terminal client (PRODUCT V1-V7), against a gateway or, with --local, one in this process. */
export async function run(argv: string[]): Promise<number> {
  const values = clientFlags('tui', argv, USAGE, { local: { type: 'boolean' } });
  if (typeof values === 'number') return values;
  if (!process.stdin.isTTY || !process.stdout.isTTY) return failure('tui', new Error('needs a terminal: run it in one (stdin and stdout must be a TTY)'));
  let endpoint;
  let local: LocalGateway | undefined;
  try {
    if (values.local) {
      if (values.url || values.token) throw new Error('--local: runs its own gateway, so --url and --token do not go with it');
      local = await startLocalGateway();
      endpoint = { url: local.wsUrl, token: local.operatorToken };
    } else endpoint = resolveEndpoint(values, process.env, process.cwd(), 'operator');
  } catch (err) {
    return usageError('tui', err, USAGE);
  }
  const client = createNodeClient({ url: endpoint.url, token: endpoint.token, client: { name: 'askdock-tui', mode: 'tui' } });
  try {
    // Ink renders only its last frame when it sees CI set; a person at a real terminal gets the live screens whatever their env says.
    if (process.stdout.isTTY) {
      delete process.env.CI;
      delete process.env.CONTINUOUS_INTEGRATION;
    }
    const { runTui } = await import('../tui/run-tui.tsx');
    const fatal = await runTui({ client, ...(values.session ? { sessionKey: values.session } : {}), local: values.local === true });
    if (fatal) return failure('tui', fatal);
    return 0;
  } finally {
    await local?.close();
  }
}
