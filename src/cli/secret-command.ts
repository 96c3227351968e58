/**
 * `askdock secret get NAME`: prints a secret a person stored through a masked prompt (W4, K1), for a script
 * running as the agent (an identity with agent.secrets). Exit 0 printed, 1 gateway failure or no such secret, 2 bad arguments.
 */
import { parseArgs } from 'node:util';
import { AskdockError, SECRET_NAME_PATTERN } from '../protocol/index.ts';
import { connect } from '../agent/sdk.ts';
import { EXIT, failure, usageError } from './args.ts';
import { endpointFlags, resolveEndpoint } from './endpoint.ts';

export const SECRET_USAGE = [
  'usage: askdock secret get NAME [--url ws://127.0.0.1:7420] [--token T]',
  '       (or ASKDOCK_URL / ASKDOCK_TOKEN; the identity needs scope agent.secrets)',
  'exit: 0 printed, 1 gateway failure or no such secret, 2 bad arguments',
].join('\n');

export type SecretArgs = { name: string; url?: string; token?: string };

export function parseSecretArgs(argv: string[]): SecretArgs {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: { url: { type: 'string' }, token: { type: 'string' } },
  });
  const [action, name, ...extra] = positionals;
  if (action !== 'get') throw new Error(action ? `unknown action "${action}": only "get" exists` : 'missing action: askdock secret get NAME');
  if (!name) throw new Error('NAME: missing; give the secret\'s name, e.g. OPENAI_API_KEY');
  if (!SECRET_NAME_PATTERN.test(name)) throw new Error(`NAME: "${name}" must match ^[A-Z][A-Z0-9_]{0,63}$`);
  if (extra.length) throw new Error(`unexpected argument "${extra[0]}"`);
  return { name, ...endpointFlags(values) };
}

export async function runSecret(argv: string[], out: NodeJS.WritableStream = process.stdout): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    out.write(SECRET_USAGE + '\n');
    return EXIT.answered;
  }
  let args: SecretArgs;
  let endpoint;
  try {
    args = parseSecretArgs(argv);
    endpoint = resolveEndpoint(args);
  } catch (err) {
    return usageError('secret', err, SECRET_USAGE);
  }
  let agent;
  try {
    agent = await connect({ ...endpoint, name: 'askdock secret', mode: 'cli' });
  } catch (err) {
    return failure('secret', err);
  }
  try {
    const value = await agent.getSecret(args.name);
    // The value and a newline, nothing else: `$(askdock secret get NAME)` drops the newline.
    out.write(`${value}\n`);
    return EXIT.answered;
  } catch (err) {
    if (err instanceof AskdockError && err.code === 'SECRET_NOT_FOUND')
      process.stderr.write(`askdock secret: no secret named ${args.name} is stored yet; an agent asks for it with request_secret\n`);
    else return failure('secret', err);
    return EXIT.failure;
  } finally {
    agent.close();
  }
}

/** `askdock secret`: see above. */
export async function run(argv: string[]): Promise<number> {
  return runSecret(argv);
}
