// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { failedModuleUrl, freshUrl, retryFailedImports, retryingImport, SOON_MS } from './retrying-import.ts';

/** An importer that fails (as `import()` does when the network drops) the first `failures` times, then succeeds. */
function flakyImporter(failures: number) {
  let calls = 0;
  const importer = vi.fn(() => {
    calls += 1;
    return calls <= failures ? Promise.reject(new TypeError('Failed to fetch dynamically imported module')) : Promise.resolve({ value: calls });
  });
  return importer;
}

afterEach(() => {
  vi.useRealTimers();
});

describe('retryingImport (U11: a chunk that failed to load is fetched again)', () => {
  it('[U11] tries once more soon, so a short drop never reaches the page', async () => {
    vi.useFakeTimers();
    const importer = flakyImporter(1);
    const chunk = retryingImport(importer);
    const loaded = chunk.load();
    await vi.advanceTimersByTimeAsync(0);
    expect(importer).toHaveBeenCalledTimes(1);
    expect(chunk.current().status).toBeUndefined();
    await vi.advanceTimersByTimeAsync(SOON_MS);
    await expect(loaded).resolves.toEqual({ value: 2 });
    expect(chunk.current()).toMatchObject({ status: 'fulfilled', value: { value: 2 } });
  });

  it('[U11] after the second failure it rejects, and the window coming back online fetches it again', async () => {
    const importer = flakyImporter(2);
    const chunk = retryingImport(importer, undefined, 0);
    const seen: string[] = [];
    chunk.subscribe(() => seen.push(chunk.current().status ?? 'loading'));
    await expect(chunk.load()).rejects.toThrow('Failed to fetch dynamically imported module');
    expect(importer).toHaveBeenCalledTimes(2);
    expect(chunk.current().status).toBe('rejected');

    window.dispatchEvent(new Event('online'));
    expect(importer).toHaveBeenCalledTimes(3);
    await expect(chunk.load()).resolves.toEqual({ value: 3 });
    expect(seen).toEqual(['loading', 'rejected', 'loading', 'fulfilled']);
  });

  it('[U11] a call after a failed preload loads again instead of repeating the old failure', async () => {
    const importer = flakyImporter(2);
    const chunk = retryingImport(importer, undefined, 0);
    await chunk.load().catch(() => undefined);
    await expect(chunk.load()).resolves.toEqual({ value: 3 });
  });

  it('[U11] callers during one load share it; a loaded chunk is never fetched again', async () => {
    const importer = flakyImporter(0);
    const chunk = retryingImport(importer);
    const [a, b] = await Promise.all([chunk.load(), chunk.load()]);
    expect(a).toBe(b);
    retryFailedImports();
    window.dispatchEvent(new Event('online'));
    await chunk.load();
    expect(importer).toHaveBeenCalledTimes(1);
  });

  it('[U11] Retry (or the gateway connection coming back) fetches only the chunks that failed', async () => {
    const failed = flakyImporter(2);
    const fine = flakyImporter(0);
    const a = retryingImport(failed, undefined, 0);
    const b = retryingImport(fine, undefined, 0);
    await Promise.allSettled([a.load(), b.load()]);
    retryFailedImports();
    await expect(a.load()).resolves.toEqual({ value: 3 });
    expect(fine).toHaveBeenCalledTimes(1);
  });

  it('[U11] reads the module a failure names, in the words of Chromium and Firefox; none from other words', () => {
    const url = 'http://127.0.0.1:7420/assets/transcript-Ab12.js';
    expect(failedModuleUrl(new TypeError(`Failed to fetch dynamically imported module: ${url}`))).toBe(url);
    expect(failedModuleUrl(new TypeError(`error loading dynamically imported module: ${url}`))).toBe(url);
    expect(failedModuleUrl(new TypeError('Importing a module script failed.'))).toBeNull();
    expect(freshUrl(url)).toMatch(/^http:\/\/127\.0\.0\.1:7420\/assets\/transcript-Ab12\.js\?retry=\d+$/);
    expect(freshUrl(url)).not.toBe(freshUrl(url));
  });

});
