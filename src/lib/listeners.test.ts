import { describe, expect, it } from 'vitest';
import { Listeners } from './listeners.ts';

describe('Listeners', () => {
  it('calls every listener with the arguments, until it is removed', () => {
    const set = new Listeners<[number, string]>();
    const seen: string[] = [];
    const off = set.add((n, s) => seen.push(`a${n}${s}`));
    set.add((n, s) => seen.push(`b${n}${s}`));
    set.emit(1, 'x');
    off();
    set.emit(2, 'y');
    expect(seen).toEqual(['a1x', 'b1x', 'b2y']);
    expect(set.size).toBe(1);
  });

  it('a listener added during an emit is called from the next one on', () => {
    const set = new Listeners();
    let late = 0;
    set.add(() => void set.add(() => late++));
    set.emit();
    expect(late).toBe(0);
    set.emit();
    expect(late).toBe(1);
  });

  it('clear removes all', () => {
    const set = new Listeners();
    let n = 0;
    set.add(() => n++);
    set.clear();
    set.emit();
    expect(n).toBe(0);
  });
});
