/**
 * `askdock policy grants [--json]` (G5, G12): the grants "Always allow…" made, as policy.get lists them (operator.admin).
 * Exit 0 printed, 1 a gateway failure or a refusal, 2 bad arguments.
 */
import type { PolicyGrant } from '../protocol/policy.ts';
import { terminalJson, terminalLine } from '../lib/terminal-text.ts';
import { clientFlags, EXIT } from './args.ts';
import { withGateway } from './policy-client.ts';

export const GRANTS_USAGE = [
  'usage: askdock policy grants [--json] [--url ws://127.0.0.1:7420] [--token T]   (an operator.admin token)',
  'exit: 0 printed, 1 a gateway failure or a refusal, 2 bad arguments',
].join('\n');

const COMMAND = 'policy grants';

/** When a grant ends, in UTC to the minute: `2026-12-13 09:41Z`. */
const until = (ms: number) => `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')}Z`;

/** The grants as a table: ID, RULE, SCOPE (and what it binds to), UNTIL, BY, QUESTION; every cell one clean line. */
export function grantsTable(grants: readonly PolicyGrant[]): string[] {
  if (grants.length === 0) return ['no grants'];
  const rows = grants.map((g) => [g.id, g.rule, g.scope + (g.sessionKey ? ` ${g.sessionKey}` : g.project ? ` ${g.project}` : g.agent ? ` ${g.agent}` : ''), until(g.expiresAt), g.grantedBy, g.questionId].map(terminalLine));
  const header = ['ID', 'RULE', 'SCOPE', 'UNTIL', 'BY', 'QUESTION'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => Array.from(r[i]).length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === cells.length - 1 ? c : c + ' '.repeat(widths[i] - Array.from(c).length))).join('  ');
  return [line(header), ...rows.map(line)];
}

export async function run(argv: string[]): Promise<number> {
  const values = clientFlags(COMMAND, argv, GRANTS_USAGE, { json: { type: 'boolean' } });
  if (typeof values === 'number') return values;
  return withGateway(COMMAND, GRANTS_USAGE, values, 'operator', async (agent) => {
    const { grants } = await agent.client.request('policy.get', {});
    process.stdout.write(values.json ? terminalJson({ grants }) + '\n' : grantsTable(grants).join('\n') + '\n');
    return EXIT.answered;
  });
}
