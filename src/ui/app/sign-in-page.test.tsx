// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import SignInPage from './sign-in-page.tsx';

afterEach(cleanup);

describe('sign-in', () => {
  it('[U18] the sign-in text names both commands that print the address: askdock start and askdock gateway', () => {
    render(<SignInPage onToken={() => {}} />);
    const text = screen.getByRole('heading', { name: 'askdock' }).parentElement!.textContent;
    expect(text).toContain('askdock start');
    expect(text).toContain('askdock gateway');
  });
});
