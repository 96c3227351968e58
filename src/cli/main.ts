/** The `askdock` bin: one module per command, loaded only when used. */
import { SERVER_VERSION } from '../protocol/version.ts';

type Command = { summary: string; load: () => Promise<{ run: (argv: string[]) => Promise<number> }> };

const commands: Record<string, Command> = {
  start: { summary: 'gateway + Control UI + demo agent on ./.askdock/', load: () => import('./start.ts') },
  gateway: { summary: 'the gateway alone [--host H] [--port N] [--db FILE|postgres://…] [--config FILE]', load: () => import('./gateway.ts') },
  'demo-agent': { summary: 'the scripted demo agent --url ws://... --token T', load: () => import('./demo-agent.ts') },
  ask: { summary: 'ask a question from a shell: askdock ask "Q?" -o A -o B', load: () => import('./ask.ts') },
  mcp: { summary: 'an MCP server on stdio exposing ask_user and request_secret [--session KEY]', load: () => import('./mcp.ts') },
  tui: { summary: 'the terminal client [--url ws://H:N] [--token T] [--session KEY] [--local]', load: () => import('./tui.ts') },
  hook: { summary: 'a permission hook for Claude Code and Codex: one hook event on stdin [--timeout S] [--session KEY]', load: () => import('./hook.ts') },
  'mcp-proxy': { summary: 'wraps an MCP server, answering its elicitations [--approve: its tool calls too]: askdock mcp-proxy -- COMMAND ARGS', load: () => import('./mcp-proxy.ts') },
  policy: { summary: "the approval policy: check -- 'Bash(git push)', import claude-code|codex FILE…, grants, revoke ID", load: () => import('./policy.ts') },
  routing: { summary: 'dry-run routing: askdock routing test [--config FILE] [--kind K] [--agent A] [--source S] [--tool RULE] [--at ISO-TIME] [--json]', load: () => import('./routing.ts') },
  audit: {
    summary: 'the audit log: askdock audit verify DIR --key KEY (offline), askdock audit key, askdock audit export --out DIR, askdock audit acknowledge',
    load: () => import('./audit.ts'),
  },
  secret: { summary: 'print a stored secret for a script: askdock secret get NAME', load: () => import('./secret-command.ts') },
};

export function usage(): string {
  const rows = Object.entries(commands).map(([name, c]) => `  askdock ${name.padEnd(11)} ${c.summary}`);
  return ['usage: askdock <command> [options]', '', ...rows, '', '  askdock --version  prints the version'].join('\n');
}

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === '--version' || name === '-v' || name === 'version') {
    process.stdout.write(`askdock ${SERVER_VERSION}\n`);
    return 0;
  }
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(usage() + '\n');
    return name ? 0 : 2;
  }
  const command = commands[name];
  if (!command) {
    process.stderr.write(`askdock: unknown command "${name}"\n${usage()}\n`);
    return 2;
  }
  const mod = await command.load();
  return mod.run(rest);
}
