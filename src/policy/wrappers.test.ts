import { describe, expect, it } from 'vitest';
import { runsAs, stripWrappers } from './wrappers.ts';

const strip = (c: string) => stripWrappers(c.split(' ')).join(' ');

describe('[G3] wrappers', () => {
  it('[G3] timeout, nice, nohup, env, assignments, command, builtin and exec are seen through', () => {
    expect(strip('timeout -k 5 --preserve-status 60 make test')).toBe('make test');
    expect(strip('nice -n 19 ionice x')).toBe('ionice x');
    expect(strip('nohup env -u HOME A=1 B=2 npm ci')).toBe('npm ci');
    expect(strip('A=1 command -p ls')).toBe('ls');
    expect(strip('exec -a name ls')).toBe('ls');
  });
  it('[G3] what is not a wrapper use stays: command -v, env -S, a lone wrapper', () => {
    expect(strip('command -v ls')).toBe('command -v ls');
    expect(strip('env -S x y')).toBe('env -S x y');
    expect(strip('nohup')).toBe('nohup');
    expect(strip('timeout 5')).toBe('timeout 5');
  });
  it('[G3] sudo, doas and xargs: the command they run, for deny and ask rules', () => {
    expect(runsAs('sudo -u root -E rm -rf /'.split(' '))).toBe('rm -rf /');
    expect(runsAs('xargs -0 -n 1 -I {} timeout 5 rm {}'.split(' '))).toBe('rm {}');
    expect(runsAs('doas sudo ls'.split(' '))).toBe('ls');
    expect(runsAs('ls -la'.split(' '))).toBeUndefined();
  });
  it('[G3] only sudo, doas and xargs run another command: a command named like an object\'s property runs none', () => {
    expect(runsAs('toString rm -rf /'.split(' '))).toBeUndefined();
    expect(runsAs('constructor -u x rm -rf /'.split(' '))).toBeUndefined();
    expect(runsAs('sudo -u x rm -rf /'.split(' '))).toBe('rm -rf /');
  });
});
