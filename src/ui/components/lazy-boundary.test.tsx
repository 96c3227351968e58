// @vitest-environment jsdom
import { act, cleanup, render, screen } from '@testing-library/react';
import type { ReactElement } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { lazyWithRetry } from '../lib/lazy-with-retry.ts';
import { LazyBoundary, LoadFailed } from './lazy-boundary.tsx';

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});
// React reports each error a boundary catches on the console; here they are the point of the test.
beforeEach(() => void vi.spyOn(console, 'error').mockImplementation(() => undefined));

/** Renders and lets React settle what it started (a suspended render is retried only inside an awaited act). */
const show = (ui: ReactElement) => act(async () => void render(ui));

/** A piece whose chunk fails to load (the network is down) until `network.up` is set. */
function pieceBehindNetwork() {
  const network = { up: false };
  const importer = vi.fn(() =>
    network.up
      ? Promise.resolve(({ name }: { name: string }) => <button type="button">Rename {name}</button>)
      : Promise.reject(new TypeError('Failed to fetch dynamically imported module')),
  );
  return { network, importer, Piece: lazyWithRetry(importer, (piece) => piece, 0) };
}

function Page({ Piece, main }: { Piece: ReturnType<typeof pieceBehindNetwork>['Piece']; main?: boolean }) {
  return (
    <div>
      <textarea aria-label="Message" />
      <LazyBoundary pending={<p>Loading…</p>} failed={main ? <LoadFailed what="the conversation" /> : null}>
        <Piece name="s1" />
      </LazyBoundary>
    </div>
  );
}

describe('LazyBoundary with lazyWithRetry (U11: a chunk that cannot load never blanks the app)', () => {
  it('[U11] leaves only the piece out while offline, and shows it once the window is back online', async () => {
    const { network, importer, Piece } = pieceBehindNetwork();
    await show(<Page Piece={Piece} />);
    await vi.waitFor(() => expect(importer).toHaveBeenCalledTimes(2), { timeout: 10_000 });
    await vi.waitFor(() => expect(screen.queryByText('Loading…')).toBeNull(), { timeout: 10_000 });
    expect(importer).toHaveBeenCalledTimes(2);
    expect(screen.getByRole('textbox', { name: 'Message' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Rename s1' })).toBeNull();

    network.up = true;
    await act(async () => void window.dispatchEvent(new Event('online')));
    expect(await screen.findByRole('button', { name: 'Rename s1' })).toBeTruthy();
    expect(screen.getByRole('textbox', { name: 'Message' })).toBeTruthy();
  });

  it('[U11] main content that cannot load says so, and Retry loads it', async () => {
    const { network, Piece } = pieceBehindNetwork();
    await show(<Page Piece={Piece} main />);
    const retry = await screen.findByRole('button', { name: 'Retry' });
    expect(screen.getByText('Could not load the conversation.')).toBeTruthy();

    network.up = true;
    await act(async () => retry.click());
    expect(await screen.findByRole('button', { name: 'Rename s1' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Retry' })).toBeNull();
  });

  it('[U11] once loaded, the piece renders in the same pass (no loading state again)', async () => {
    const { network, Piece } = pieceBehindNetwork();
    network.up = true;
    await show(<Page Piece={Piece} />);
    await screen.findByRole('button', { name: 'Rename s1' });
    cleanup();
    render(<Page Piece={Piece} />);
    expect(screen.getByRole('button', { name: 'Rename s1' })).toBeTruthy();
  });
});
