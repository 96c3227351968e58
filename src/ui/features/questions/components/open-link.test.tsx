// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { OpenLink } from './open-link.tsx';

afterEach(cleanup);

describe('OpenLink', () => {
  it('[U16][U12] is the "Open link" button: a new tab with rel="noopener noreferrer", the hint as its description, Enter and Space press it', async () => {
    render(<OpenLink url="https://example.com/pull/42" />);
    const button = screen.getByRole('button', { name: 'Open link' });
    expect(button).toHaveAttribute('href', 'https://example.com/pull/42');
    expect(button).toHaveAttribute('target', '_blank');
    expect(button).toHaveAttribute('rel', 'noopener noreferrer');
    expect(button).toHaveAccessibleDescription(/example\.com in a new tab\. Finish the step there, then come back here to answer\./);
    const presses: string[] = [];
    // jsdom does not navigate; each activation is a click on the anchor.
    button.addEventListener('click', (e) => {
      e.preventDefault();
      presses.push('click');
    });
    button.focus();
    await userEvent.keyboard('{Enter}');
    await userEvent.keyboard(' ');
    expect(presses).toEqual(['click', 'click']);
  });

  it('[U16] anything but an http(s) address shows no button', () => {
    render(<OpenLink url="javascript:alert(1)" />);
    expect(screen.queryByRole('button', { name: 'Open link' })).toBeNull();
  });
});
