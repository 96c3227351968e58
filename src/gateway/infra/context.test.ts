import { describe, expect, it } from 'vitest';
import { ContextSlot } from './context.ts';

const tick = () => new Promise((ok) => setImmediate(ok));

describe('context slots: values that follow the running code, one AsyncLocalStorage for all', () => {
  it('a slot set inside another keeps the outer one, through awaits, and both are back as they were after', async () => {
    const request = new ContextSlot<string>('request');
    const unit = new ContextSlot<number>('unit');
    const seen: unknown[] = [];
    await request.run('r1', async () => {
      await unit.run(1, async () => {
        await tick();
        seen.push([request.get(), unit.get()]);
        // A nested run of the same slot shadows it for its callee only.
        await unit.run(2, async () => {
          await tick();
          seen.push([request.get(), unit.get()]);
        });
        seen.push([request.get(), unit.get()]);
      });
      await tick();
      seen.push([request.get(), unit.get()]);
    });
    seen.push([request.get(), unit.get()]);
    expect(seen).toEqual([
      ['r1', 1],
      ['r1', 2],
      ['r1', 1],
      ['r1', undefined],
      [undefined, undefined],
    ]);
  });

  it('work started in a run keeps its values after the run returned; code started elsewhere meanwhile does not see them', async () => {
    const slot = new ContextSlot<string>('slot');
    const other = new ContextSlot<string>('other');
    let release!: () => void;
    const gate = new Promise<void>((ok) => (release = ok));
    const started = other.run('o', () => slot.run('inside', async () => {
      await gate;
      return [slot.get(), other.get()];
    }));
    const outside = (async () => {
      await tick();
      return [slot.get(), other.get()];
    })();
    release();
    expect(await started).toEqual(['inside', 'o']);
    expect(await outside).toEqual([undefined, undefined]);
  });

  it('two slots of the same name are apart (one per store or hub of a process)', () => {
    const a = new ContextSlot<string>('transaction');
    const b = new ContextSlot<string>('transaction');
    expect(a.run('a', () => [a.get(), b.get(), b.run('b', () => [a.get(), b.get()])])).toEqual(['a', undefined, ['a', 'b']]);
  });
});
