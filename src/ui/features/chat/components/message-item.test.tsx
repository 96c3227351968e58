// @vitest-environment jsdom
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { TranscriptMessage } from '../lib/history-cache.ts';
import { MessageItem } from './message-item.tsx';

afterEach(cleanup);

const system = (text: string): TranscriptMessage => ({ id: 'm1', sessionKey: 's1', role: 'system', text, authorId: 'gateway', createdAtMs: Date.now(), seq: 1 });

describe('[G6] a decided approval in the conversation', () => {
  it('[G6] shows as one line named by its text, the request and the rule as code, with no author header', () => {
    render(<MessageItem message={system('✓ Allowed Bash(npm run test) · rule npm-tests')} />);
    const row = screen.getByRole('article', { name: '✓ Allowed Bash(npm run test) · rule npm-tests' });
    expect(row).toHaveAttribute('data-outcome', 'allowed');
    expect(within(row).queryByText('System')).toBeNull();
    const codes = row.querySelectorAll('code');
    expect([...codes].map((c) => c.textContent)).toEqual(['Bash(npm run test)', 'npm-tests']);
    expect(row.querySelector('p')).toHaveTextContent('✓ Allowed Bash(npm run test) · rule npm-tests');
  });

  it('[G6] a denial reads Denied with its rule; a grant names the grant', () => {
    render(
      <>
        <MessageItem message={system('✕ Denied Bash(rm -rf /) · rule no-rm')} />
        <MessageItem message={{ ...system('✓ Allowed Bash(npm run test) · grant g_1'), id: 'm2' }} />
      </>,
    );
    expect(screen.getByRole('article', { name: '✕ Denied Bash(rm -rf /) · rule no-rm' })).toHaveAttribute('data-outcome', 'denied');
    const granted = screen.getByRole('article', { name: '✓ Allowed Bash(npm run test) · grant g_1' });
    expect(within(granted).getByText('g_1').tagName).toBe('CODE');
  });

  it('[G6] any other system message keeps its author header and plain text', () => {
    render(<MessageItem message={system('The agent restarted')} />);
    const row = screen.getByRole('article', { name: 'System' });
    expect(row).toHaveTextContent('The agent restarted');
    expect(row.querySelector('code')).toBeNull();
  });
});
