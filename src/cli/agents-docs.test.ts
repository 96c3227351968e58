import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { decisionOutput, readHookEvent } from './hook.ts';

const HERE = dirname(fileURLToPath(import.meta.url));
const doc = readFileSync(resolve(HERE, '../../docs/agents.md'), 'utf8');
const section = doc.slice(doc.indexOf('## Approvals, questions and elicitations agents already ask'));
const fixture = (name: string) => readFileSync(resolve(HERE, '../testing/hook-fixtures', `${name}.json`), 'utf8');

/** The fenced blocks of `lang` in the X7 section, each under the heading it sits in. */
function blocks(lang: string): { heading: string; body: string }[] {
  const out: { heading: string; body: string }[] = [];
  let heading = '';
  const re = /^(#{2,3} .*)$|^```(\w+)\n([\s\S]*?)^```$/gm;
  for (const m of section.matchAll(re)) {
    if (m[1]) heading = m[1];
    else if (m[2] === lang) out.push({ heading, body: m[3] });
  }
  return out;
}

type HooksBlock = { hooks: Record<string, { matcher: string; hooks: { type: string; command: string; timeout: number }[] }[]> };

/** Which documented event example each hook event of the docs is tried with. */
const EXAMPLES: Record<string, Record<string, string[]>> = {
  'Claude Code': { PermissionRequest: ['claude-bash', 'claude-edit', 'claude-write', 'claude-mcp-tool', 'claude-ask-single', 'claude-ask-four'], Elicitation: ['claude-elicitation-form', 'claude-elicitation-url'] },
  Codex: { PermissionRequest: ['codex-bash'] },
};

describe('docs/agents.md (X7)', () => {
  it('[X7] every JSON block parses; the hook blocks of Claude Code and Codex name `askdock hook` with its own flags only', () => {
    const json = blocks('json');
    expect(json.length).toBeGreaterThanOrEqual(3);
    for (const b of json) expect(() => JSON.parse(b.body), `${b.heading}:\n${b.body}`).not.toThrow();
    const hooks = json.map((b) => ({ ...b, parsed: JSON.parse(b.body) as HooksBlock })).filter((b) => b.parsed.hooks);
    expect(hooks.map((b) => b.heading)).toEqual(['### Claude Code: the permission hook', '### Codex: the permission hook']);
    for (const b of hooks) {
      const agent = b.heading.includes('Codex') ? 'Codex' : 'Claude Code';
      expect(Object.keys(b.parsed.hooks).sort()).toEqual(Object.keys(EXAMPLES[agent]).sort());
      for (const [event, entries] of Object.entries(b.parsed.hooks)) {
        for (const entry of entries) {
          for (const hook of entry.hooks) {
            expect(hook.type).toBe('command');
            const [bin, command, ...flags] = hook.command.split(/\s+/);
            expect(`${bin} ${command}`).toBe('askdock hook');
            const names = flags.filter((f) => f.startsWith('--'));
            for (const name of names) expect(['--url', '--token', '--timeout', '--session']).toContain(name);
            // The agent's own timeout leaves room for the hook's 120 s.
            expect(hook.timeout).toBeGreaterThan(120);
          }
        }
        // Each documented event example of that agent is one the hook asks (none ignored, none unreadable).
        for (const name of EXAMPLES[agent][event]) {
          const read = readHookEvent(fixture(name));
          expect(read.kind, name).toBe(event === 'Elicitation' ? 'elicitation' : 'tool');
          if (read.kind === 'tool' || read.kind === 'elicitation') expect(read.agent).toBe(agent);
        }
      }
    }
  });

  it('[X7] the decision shown is the one the hook prints for Allow', () => {
    const shown = blocks('json').find((b) => JSON.parse(b.body).hookSpecificOutput);
    expect(JSON.parse(shown!.body)).toEqual(decisionOutput('PermissionRequest', 'Claude Code', { behavior: 'allow' }));
  });

  it('[X7] the proxy line for Claude Code, the Codex table and the SDK callback are there', () => {
    expect(section).toMatch(/^claude mcp add [\w-]+ -- askdock mcp-proxy -- \S.*$/m);
    expect(blocks('toml')[0].body).toContain('args = ["mcp-proxy", "--",');
    expect(blocks('ts')[0].body).toContain("import { askdockCanUseTool } from 'askdock/claude-agent-sdk';");
    expect(section).toContain('120 seconds');
  });
});
