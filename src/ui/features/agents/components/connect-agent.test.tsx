// @vitest-environment jsdom
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { ConnectInfo } from '../api/get-connect-info.ts';
import { ConnectAgentBody } from './connect-agent.tsx';

afterEach(cleanup);

const here = { state: 'connected', sinceMs: 1 } as const;
const away = { state: 'absent', sinceMs: null } as const;
// As `askdock start` lists them: the demo agent's identity first, then the one it adds for integrations.
const demo = { id: 'agent', token: 'adk_demo_token', presence: here, demo: true };
const integrations = { id: 'integrations', token: 'adk_integrations_token', presence: away, demo: false };

async function showToken(info: ConnectInfo) {
  render(<ConnectAgentBody info={info} />);
  await userEvent.click(screen.getByRole('button', { name: 'Show token' }));
  return screen.getByRole('region', { name: 'Claude Code' });
}

describe('Connect an agent', () => {
  it('[U18][A6] shows the integrations agent\'s token, not the demo agent\'s, in the token and every snippet', async () => {
    const claude = await showToken({ agents: [demo, integrations] });
    expect(screen.getByText('Agent token (integrations)')).toBeTruthy();
    expect(screen.getByLabelText('Agent token').textContent).toBe('adk_integrations_token');
    expect(claude.textContent).toContain('--env ASKDOCK_TOKEN=adk_integrations_token');
    expect(document.body.textContent).not.toContain('adk_demo_token');
  });

  it('[U18][A6] without an integrations identity it offers another agent, never the demo agent', async () => {
    await showToken({ agents: [demo, { ...integrations, id: 'ci-bot', token: 'adk_ci' }] });
    expect(screen.getByText('Agent token (ci-bot)')).toBeTruthy();
    expect(document.body.textContent).not.toContain('adk_demo_token');
  });

  it('[U18][A6] when the demo agent is the only agent identity, its token is not offered and the page says why', () => {
    render(<ConnectAgentBody info={{ agents: [demo] }} />);
    expect(screen.queryByRole('button', { name: 'Show token' })).toBeNull();
    expect(screen.getByText(/only agent identity here is the demo agent's/)).toBeTruthy();
    expect(document.body.textContent).not.toContain('adk_demo_token');
  });

  it('[U18][X1] the Claude Code line is the one docs/agents.md gives, with this address and the token', async () => {
    const claude = await showToken({ agents: [integrations] });
    const line = within(claude).getByText(/^claude mcp add/).textContent!;
    const url = `ws://${window.location.host}`;
    const docs = readFileSync(join(process.cwd(), 'docs/agents.md'), 'utf8');
    const documented = line.replace(url, 'ws://127.0.0.1:7420').replace('adk_integrations_token', '<agent token>');
    expect(docs.split('\n')).toContain(documented);
  });
});
