/** One ready configuration for one way of connecting an agent (U18, PRODUCT X1/X7). */
export type Snippet = { id: string; title: string; where: string; text: string };

/** The agent's address of this gateway: the page's own host, ws or wss as the page is served. */
export function agentUrl(location: Pick<Location, 'protocol' | 'host'>): string {
  return `${location.protocol === 'https:' ? 'wss:' : 'ws:'}//${location.host}`;
}

/** The agent's own timeout for `askdock hook` (seconds), above the hook's 120 s wait. */
export const HOOK_TIMEOUT_S = 150;

/** Snippets for Claude Code, Codex, a project's `.mcp.json`, the `askdock hook` hooks and `askdock ask`, filled in. */
export function connectSnippets(url: string, token: string): Snippet[] {
  const env = { ASKDOCK_URL: url, ASKDOCK_TOKEN: token };
  // As docs/agents.md: the hook waits 120 s for a person, the agent's own timeout sits above it.
  const hook = `{ "type": "command", "command": "askdock hook", "timeout": ${HOOK_TIMEOUT_S} }`;
  return [
    {
      id: 'claude-code',
      title: 'Claude Code',
      where: 'In a terminal',
      text: `claude mcp add --scope user askdock --env ASKDOCK_URL=${url} --env ASKDOCK_TOKEN=${token} -- askdock mcp`,
    },
    {
      id: 'codex',
      title: 'Codex',
      where: '~/.codex/config.toml',
      text: [
        '[mcp_servers.askdock]',
        'command = "askdock"',
        'args = ["mcp"]',
        `env = { ASKDOCK_URL = "${url}", ASKDOCK_TOKEN = "${token}" }`,
        'tool_timeout_sec = 3600',
      ].join('\n'),
    },
    {
      id: 'mcp-json',
      title: '.mcp.json',
      where: "At the project's root",
      text: JSON.stringify({ mcpServers: { askdock: { command: 'askdock', args: ['mcp'], env } } }, null, 2),
    },
    {
      id: 'hook',
      title: 'Hook',
      where: "askdock hook, in Claude Code's settings.json",
      text: [
        '{',
        `  "env": { "ASKDOCK_URL": "${url}", "ASKDOCK_TOKEN": "${token}" },`,
        '  "hooks": {',
        // PermissionRequest covers approvals and AskUserQuestion; PreToolUse for it too would ask twice.
        `    "PermissionRequest": [{ "matcher": "*", "hooks": [${hook}] }],`,
        `    "Elicitation": [{ "matcher": "*", "hooks": [${hook}] }]`,
        '  }',
        '}',
      ].join('\n'),
    },
    {
      id: 'ask',
      title: 'askdock ask',
      where: 'In a script',
      text: `ASKDOCK_URL=${url} ASKDOCK_TOKEN=${token} askdock ask "Where should I deploy?" -o Staging -o Production`,
    },
  ];
}
