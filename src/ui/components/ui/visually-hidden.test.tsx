// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { VisuallyHidden } from './visually-hidden.tsx';

afterEach(cleanup);

describe('VisuallyHidden', () => {
  it('[U12] a live region out of sight is still a polite status with its text, clipped to one pixel out of the flow', () => {
    render(
      <VisuallyHidden role="status" aria-live="polite" aria-atomic="true">
        Lunch? is waiting
      </VisuallyHidden>,
    );
    const region = screen.getByRole('status');
    expect(region).toHaveTextContent('Lunch? is waiting');
    expect(region).toHaveAttribute('aria-live', 'polite');
    expect(region.style.position).toBe('absolute');
    expect(region.style.width).toBe('1px');
    expect(region.style.clip).toBe('rect(0px, 0px, 0px, 0px)');
  });
});
