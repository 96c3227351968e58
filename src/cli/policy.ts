/**
 * `askdock policy …` (G5, G8, G9): check a request against the approval policy, import Claude Code or Codex rules,
 * list and revoke grants. One module per subcommand, loaded only when used.
 */
import { usageError } from './args.ts';

type Sub = { summary: string; load: () => Promise<{ run: (argv: string[]) => Promise<number> }> };

const subcommands: Record<string, Sub> = {
  check: { summary: "what the policy decides: [--config FILE] [--agent A] [--json] -- 'Bash(git push origin main)'", load: () => import('./policy-check.ts') },
  import: { summary: 'policy JSON from Claude Code settings or Codex .rules: import claude-code|codex FILE…', load: () => import('./policy-import.ts') },
  grants: { summary: 'the grants "Always allow" made [--json]', load: () => import('./policy-grants.ts') },
  revoke: { summary: 'end a grant: revoke ID', load: () => import('./policy-revoke.ts') },
};

export const POLICY_USAGE = ['usage: askdock policy <check|import|grants|revoke> …', ...Object.entries(subcommands).map(([name, s]) => `  askdock policy ${name.padEnd(7)} ${s.summary}`)].join('\n');

export async function run(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(POLICY_USAGE + '\n');
    return 0;
  }
  const sub = name ? subcommands[name] : undefined;
  if (!sub) return usageError('policy', new Error(name ? `unknown subcommand "${name}": check, import, grants or revoke` : 'the subcommand is missing: check, import, grants or revoke'), POLICY_USAGE);
  return (await sub.load()).run(rest);
}
