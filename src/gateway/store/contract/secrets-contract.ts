import { beforeEach, describe, expect, it } from 'vitest';
import { run } from './contract-fixtures.ts';
import type { Store, StoredSecretRequest } from '../types.ts';

/** K1: secret requests and secrets (with RU1/RU2's run marks); part of the store contract that store.contract.test.ts runs on every store. */
export function secretsContract(current: () => Store): void {
  describe('secrets', () => {
    let store: Store;
    beforeEach(() => { store = current(); });

    const request = (id: string, over: Partial<StoredSecretRequest> = {}): StoredSecretRequest => ({
      id,
      name: 'API_KEY',
      description: 'for the deploy',
      sessionKey: 's1',
      runId: 'r1',
      askedBy: 'agent',
      createdAtMs: 1_000,
      expiresAtMs: 901_000,
      status: 'pending',
      askerClientId: 'client-1',
      ...over,
    });

    it('[RU1][RU2] keeps a run\'s parent and its superseded mark', async () => {
      await store.insertRun(run('r1'));
      await store.insertRun(run('r2', { parentRunId: 'r1' }));
      expect((await store.getRun('r2'))).toStrictEqual(run('r2', { parentRunId: 'r1' }));
      await store.updateRun(run('r1', { supersededAtMs: 5_000 }));
      expect((await store.getRun('r1'))).toStrictEqual(run('r1', { supersededAtMs: 5_000 }));
      expect((await store.activeRuns('s1')).map((r) => r.supersededAtMs)).toEqual([5_000, undefined]);
    });

    it('[K1] stores, updates and lists secret requests oldest first, by status', async () => {
      await store.insertSecretRequest(request('k2', { createdAtMs: 2_000, sessionKey: undefined, runId: undefined }));
      await store.insertSecretRequest(request('k1'));
      expect((await store.getSecretRequest('k1'))).toStrictEqual(request('k1'));
      expect((await store.getSecretRequest('nope'))).toBeUndefined();
      const done = request('k1', { status: 'stored', resolvedBy: { identity: 'op', surface: 'control-ui', atMs: 3_000 } });
      await store.updateSecretRequest(done);
      expect((await store.getSecretRequest('k1'))).toStrictEqual(done);
      expect((await store.listSecretRequests({})).map((r) => r.id)).toEqual(['k1', 'k2']);
      expect((await store.listSecretRequests({ status: 'pending' })).map((r) => r.id)).toEqual(['k2']);
      expect((await store.listSecretRequests({ status: 'stored' }))).toStrictEqual([done]);
      await expect(async () => await store.insertSecretRequest(request('k1'))).rejects.toThrow();
      await expect(async () => await store.updateSecretRequest(request('missing'))).rejects.toThrow(/secret request "missing"/);
    });

    it('[K1] keeps one ciphertext per owner and name, the newest replacing the older', async () => {
      expect((await store.getSecret('agent-a', 'API_KEY'))).toBeUndefined();
      await store.putSecret({ owner: 'agent-a', name: 'API_KEY', ciphertext: 'v1:first', storedBy: 'op', requestId: 'k1', storedAtMs: 1_000 });
      await store.putSecret({ owner: 'agent-a', name: 'OTHER', ciphertext: 'v1:other', storedBy: 'op', storedAtMs: 1_500 });
      await store.putSecret({ owner: 'agent-a', name: 'API_KEY', ciphertext: 'v1:second', storedBy: 'op2', requestId: 'k2', storedAtMs: 2_000 });
      expect((await store.getSecret('agent-a', 'API_KEY'))).toStrictEqual({ owner: 'agent-a', name: 'API_KEY', ciphertext: 'v1:second', storedBy: 'op2', requestId: 'k2', storedAtMs: 2_000 });
      expect((await store.getSecret('agent-a', 'OTHER'))).toStrictEqual({ owner: 'agent-a', name: 'OTHER', ciphertext: 'v1:other', storedBy: 'op', storedAtMs: 1_500 });
    });

    it("[K1][A4] one owner's secret is not another's: the same name keeps a value per owner, and none is read across", async () => {
      await store.putSecret({ owner: 'agent-a', name: 'API_KEY', ciphertext: 'v1:of-a', storedBy: 'op', requestId: 'k1', storedAtMs: 1_000 });
      expect((await store.getSecret('agent-b', 'API_KEY'))).toBeUndefined();
      await store.putSecret({ owner: 'agent-b', name: 'API_KEY', ciphertext: 'v1:of-b', storedBy: 'op', requestId: 'k2', storedAtMs: 2_000 });
      expect((await store.getSecret('agent-a', 'API_KEY'))?.ciphertext).toBe('v1:of-a');
      expect((await store.getSecret('agent-b', 'API_KEY'))?.ciphertext).toBe('v1:of-b');
    });

    it('[K1][R3] a rolled-back transaction leaves no secret and no request behind', async () => {
      await expect(async () =>
        (await store.transaction(async () => {
          await store.insertSecretRequest(request('k1'));
          await store.putSecret({ owner: 'agent-a', name: 'API_KEY', ciphertext: 'v1:x', storedBy: 'op', storedAtMs: 1_000 });
          throw new Error('undo');
        })),
      ).rejects.toThrow('undo');
      expect((await store.getSecretRequest('k1'))).toBeUndefined();
      expect((await store.getSecret('agent-a', 'API_KEY'))).toBeUndefined();
    });
  });
}
