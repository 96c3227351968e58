import { describe, expect, it } from 'vitest';
import { agentUrl, connectSnippets } from './snippets.ts';

describe('connect snippets', () => {
  it('[U18] the agent address follows the page: ws on http, wss on https', () => {
    expect(agentUrl({ protocol: 'http:', host: 'team.local:7420' })).toBe('ws://team.local:7420');
    expect(agentUrl({ protocol: 'https:', host: 'askdock.example' })).toBe('wss://askdock.example');
  });

  it('[U18][X1] every snippet carries this address and the token; the JSON ones parse', () => {
    const snippets = connectSnippets('wss://askdock.example', 'tok-123');
    expect(snippets.map((s) => s.title)).toEqual(['Claude Code', 'Codex', '.mcp.json', 'Hook', 'askdock ask']);
    for (const s of snippets) expect(s.text, s.id).toContain('wss://askdock.example');
    for (const s of snippets) expect(s.text, s.id).toContain('tok-123');
    const mcp = JSON.parse(snippets[2].text);
    expect(mcp.mcpServers.askdock).toEqual({ command: 'askdock', args: ['mcp'], env: { ASKDOCK_URL: 'wss://askdock.example', ASKDOCK_TOKEN: 'tok-123' } });
    const hook = JSON.parse(snippets[3].text);
    expect(hook.hooks.PermissionRequest[0].hooks[0]).toMatchObject({ type: 'command', command: 'askdock hook' });
  });

  it('[U18][X7] the hook snippet agrees with docs/agents.md: PermissionRequest (not also PreToolUse AskUserQuestion), timeout 150', () => {
    const hook = JSON.parse(connectSnippets('ws://127.0.0.1:7420', 'tok').find((s) => s.id === 'hook')!.text);
    expect(Object.keys(hook.hooks)).toEqual(['PermissionRequest', 'Elicitation']);
    expect(hook.hooks.PreToolUse).toBeUndefined();
    for (const event of Object.values(hook.hooks) as { hooks: { timeout: number; command: string }[] }[][])
      expect(event[0].hooks[0]).toEqual({ type: 'command', command: 'askdock hook', timeout: 150 });
  });
});
