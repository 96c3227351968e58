// @vitest-environment jsdom
import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { dockCodeReady, QuestionDock } from '../index.tsx';
import { composer, deployRecord, lunchRecord, resetStores, setup } from '../../../../testing/ui-questions.tsx';
import { urgencyOf } from './time-left.tsx';

const header = () => screen.getByRole('region', { name: 'Questions' }).querySelector('.qd-header') as HTMLElement;

beforeAll(() => dockCodeReady);
beforeEach(resetStores);
afterEach(cleanup);

describe('DockHeader', () => {
  it('[U2][U6][U12] one row: who asks, the request pager read as "Request 1 of 2" with 1/2 in sight, the stepper, the time left and Collapse', () => {
    const now = Date.now();
    setup([deployRecord({ createdAtMs: now, expiresAtMs: now + 10 * 60_000 }), lunchRecord({ createdAtMs: now - 1 })]).render(
      <QuestionDock sessionKey="s1" composer={composer} sessionTitle="Deploys" />,
    );
    const row = within(header());
    expect(row.getByText('agent')).toBeInTheDocument();
    expect(header()).toHaveTextContent('Asked by agent');
    expect(row.getByRole('group', { name: 'Pending requests' })).toHaveTextContent('Request 1 of 2');
    expect(row.getByText('1/2')).toBeVisible();
    expect(row.getByRole('button', { name: 'Previous request' })).toBeInTheDocument();
    expect(row.getByRole('button', { name: 'Next request' })).toBeInTheDocument();
    expect(row.getByText(/Question 1 of 2/)).toBeInTheDocument();
    expect(row.getByRole('timer')).toHaveAttribute('data-urgency', 'calm');
    expect(row.getByRole('button', { name: 'Collapse questions' })).toHaveTextContent('Collapse');
  });

  it('[X5][T6] in a client\'s own session the client or wrapped server asks, through the asking identity', () => {
    setup([deployRecord()]).render(<QuestionDock sessionKey="s1" composer={composer} sessionTitle="github-mcp · web" />);
    expect(header()).toHaveTextContent('Asked by github-mcp');
    expect(header()).toHaveTextContent('via agent');
  });

  it('[U7] the time-left chip is calm, then warns under two minutes, then is urgent under thirty seconds', () => {
    expect(urgencyOf(5 * 60_000)).toBe('calm');
    expect(urgencyOf(120_000)).toBe('calm');
    expect(urgencyOf(119_999)).toBe('soon');
    expect(urgencyOf(30_000)).toBe('soon');
    expect(urgencyOf(29_999)).toBe('critical');
    expect(urgencyOf(-1)).toBe('critical');
  });
});
