import { describe, expect, it, vi } from 'vitest';
import { openOnConnect } from './open-on-connect.ts';

/** An opener whose first opens wait until the test lets them end. */
function fakeOpener() {
  let session = false;
  const ends: ((ok: boolean) => void)[] = [];
  const opener = {
    openInitial: vi.fn(
      () =>
        new Promise<void>((resolve) =>
          ends.push((ok) => {
            session = ok;
            resolve();
          }),
        ),
    ),
    reload: vi.fn(async () => {}),
    hasSession: () => session,
    failed: vi.fn(),
  };
  const finish = async (ok: boolean) => {
    ends.shift()!(ok);
    await new Promise((r) => setTimeout(r, 0));
  };
  return { opener, finish };
}

describe('openOnConnect', () => {
  it('[V1] a reconnect during the first session open starts no second open; later connects reload', async () => {
    const { opener, finish } = fakeOpener();
    const onConnect = openOnConnect(opener, 's_1');
    onConnect();
    onConnect();
    expect(opener.openInitial).toHaveBeenCalledTimes(1);
    expect(opener.openInitial).toHaveBeenCalledWith('s_1');
    await finish(true);
    expect(opener.openInitial).toHaveBeenCalledTimes(1);
    onConnect();
    expect(opener.reload).toHaveBeenCalledTimes(1);
    expect(opener.openInitial).toHaveBeenCalledTimes(1);
  });

  it('[V1] a first open that fails is tried again: at once if a connect came meanwhile, else on the next connect', async () => {
    const { opener, finish } = fakeOpener();
    const onConnect = openOnConnect(opener);
    onConnect();
    onConnect();
    await finish(false);
    expect(opener.openInitial).toHaveBeenCalledTimes(2);
    await finish(false);
    expect(opener.openInitial).toHaveBeenCalledTimes(2);
    onConnect();
    expect(opener.openInitial).toHaveBeenCalledTimes(3);
    expect(opener.reload).not.toHaveBeenCalled();
  });
});
