// @vitest-environment jsdom
import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { deployRecord, resetStores, setup } from '../../testing/ui-questions.tsx';
import { InboxPage } from './inbox-page.tsx';

beforeEach(resetStores);
afterEach(cleanup);

describe('the Inbox page', () => {
  it('[U12][U15] keeps an ended sessionless question\'s summary in its transcript, the log "Conversation", under the dock\'s region "Questions"', async () => {
    const ended = deployRecord({ id: 'q-ended', sessionKey: undefined, status: 'skipped' });
    const waiting = deployRecord({ id: 'q-waiting', sessionKey: undefined });
    setup([ended, waiting]).render(<InboxPage />);
    const log = screen.getByRole('log', { name: 'Conversation' });
    expect(await within(log).findByRole('group', { name: 'Question skipped' })).toHaveTextContent('Where should I deploy?');
    expect(screen.getByRole('region', { name: 'Questions' })).toBeInTheDocument();
  });
});
