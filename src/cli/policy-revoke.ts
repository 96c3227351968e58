/**
 * `askdock policy revoke ID` (G5, G12): ends a grant (policy.grant.revoke; operator.admin or the grant's maker).
 * Exit 0 revoked, 1 a gateway failure or a refusal (no such grant), 2 bad arguments.
 */
import { parseArgs } from 'node:util';
import { terminalLine } from '../lib/terminal-text.ts';
import { EXIT, usageError } from './args.ts';
import { endpointFlags } from './endpoint.ts';
import { withGateway } from './policy-client.ts';

export const REVOKE_USAGE = [
  'usage: askdock policy revoke ID [--url ws://127.0.0.1:7420] [--token T]   (ID from askdock policy grants)',
  'exit: 0 revoked, 1 a gateway failure or a refusal, 2 bad arguments',
].join('\n');

const COMMAND = 'policy revoke';

export async function run(argv: string[]): Promise<number> {
  let id: string;
  let flags: { url?: string; token?: string };
  try {
    const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, strict: true, options: { url: { type: 'string' }, token: { type: 'string' }, help: { type: 'boolean', short: 'h' } } });
    if (values.help) {
      process.stdout.write(REVOKE_USAGE + '\n');
      return EXIT.answered;
    }
    if (positionals.length === 0) throw new Error('ID is missing: askdock policy revoke ID (the grant\'s id, from askdock policy grants)');
    if (positionals.length > 1) throw new Error(`one grant at a time: unexpected argument "${positionals[1]}"`);
    id = positionals[0];
    if (!id.trim()) throw new Error('ID: must not be empty');
    flags = endpointFlags(values);
  } catch (err) {
    return usageError(COMMAND, err, REVOKE_USAGE);
  }
  return withGateway(COMMAND, REVOKE_USAGE, flags, 'operator', async (agent) => {
    const { revoked } = await agent.client.request('policy.grant.revoke', { id });
    if (!revoked) {
      process.stderr.write(`askdock ${COMMAND}: no grant ${terminalLine(id)} is in force (revoked or ended already); askdock policy grants lists them\n`);
      return EXIT.failure;
    }
    process.stdout.write(`revoked grant ${terminalLine(id)}\n`);
    return EXIT.answered;
  });
}
