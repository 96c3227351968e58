import { parseArgs } from 'node:util';
import { startDemoAgent } from '../agent/demo-agent.ts';
import { resolveEndpoint } from './endpoint.ts';
import { failure, usageError } from './args.ts';
import { connect } from '../agent/sdk.ts';

const USAGE = 'usage: askdock demo-agent [--url ws://127.0.0.1:7420] [--token T]   (keywords: deploy, async, fail, slow; timeout=N)';

/** `askdock demo-agent`: the scripted agent of src/agent/demo-agent.ts, until Ctrl+C. */
export async function run(argv: string[]): Promise<number> {
  let endpoint;
  try {
    const { values } = parseArgs({
      args: argv,
      options: { url: { type: 'string' }, token: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
      strict: true,
    });
    if (values.help) {
      process.stdout.write(USAGE + '\n');
      return 0;
    }
    endpoint = resolveEndpoint(values, process.env, process.cwd(), 'demo-agent');
  } catch (err) {
    return usageError('demo-agent', err, USAGE);
  }
  let agent;
  try {
    agent = await connect({ ...endpoint, name: 'askdock-demo-agent' });
  } catch (err) {
    return failure('demo-agent', err);
  }
  const demo = await startDemoAgent({ agent });
  process.stderr.write(`askdock demo-agent: connected to ${endpoint.url}\n`);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
  });
  await demo.close();
  agent.close();
  return 0;
}
