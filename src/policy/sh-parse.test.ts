import { describe, expect, it, vi } from 'vitest';
import { parse } from 'sh-syntax';
import { parserStats, parseShell } from './sh-parse.ts';
import { analyzeCommand } from './shell.ts';

const distinct = (n: number, tag: string) => Array.from({ length: n }, (_, i) => `cd pkg-${tag}-${i} && make build-${i} | tee -a log-${i} && ./run --port ${i} # ${tag}`);

describe('[G3] one WebAssembly instance parses every command', () => {
  it('[G3] 300 different commands start the parser at most once, and each parse is what sh-syntax itself returns', async () => {
    const started = vi.spyOn(WebAssembly, 'instantiate');
    const commands = distinct(300, 'once');
    for (const c of commands) expect((await analyzeCommand(c)).hazards, c).toEqual([]);
    expect(started.mock.calls.length).toBeLessThanOrEqual(1);
    started.mockRestore();
    for (const c of commands.slice(0, 5)) expect(await parseShell(c, { keepComments: false })).toEqual(await parse(c, { keepComments: false }));
  });
  it('[G3] its memory is put back before the heap fills: many long commands later it still parses, and still refuses what is not bash', async () => {
    // ~3,000 commands of ~1.2 KB: far more than the 10 MB heap holds, had nothing been put back.
    const trapsBefore = parserStats.fresh;
    const long = (i: number) => `echo start-${i} && ${Array.from({ length: 60 }, (_, k) => `step-${k} --n ${i}`).join(' | ')}`;
    for (let i = 0; i < 3000; i++) {
      const file = await parseShell(long(i), { keepComments: false });
      expect(file.Stmts.length).toBe(1);
    }
    expect(parserStats.fresh - trapsBefore).toBe(0); // no parse trapped and fell back to a fresh instance
    expect(parserStats.instances).toBe(1);
    await expect(parseShell('if true; then ls', { keepComments: false })).rejects.toThrow();
    expect((await parseShell('ls -la | wc -l', { keepComments: false })).Stmts).toHaveLength(1);
  });
});
