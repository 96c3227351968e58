import { describe, expect, it, vi } from 'vitest';
import * as sh from './sh-parse.ts';
import { analyzeCommand, splitCommand, UNPARSED } from './shell.ts';
import { compilePolicy } from './compile.ts';
import { decide } from './decide.ts';

vi.mock('./sh-parse.ts', async (original) => {
  const real = await original<typeof import('./sh-parse.ts')>();
  return { ...real, parseShell: vi.fn(real.parseShell) };
});

const texts = (c: string) => splitCommand(c).parts.map((p) => p.text);

describe('[G3] the shell split', () => {
  it('[G3] splits on ; && || | |& & and new lines, not inside quotes or comments', () => {
    expect(texts('a 1; b 2 && c || d | e |& f & g\nh')).toEqual(['a 1', 'b 2', 'c', 'd', 'e', 'f', 'g', 'h']);
    expect(texts(`echo 'x; y' "p | q" a\\;b # ; rm -rf /`)).toEqual([`echo 'x; y' "p | q" a\\;b`]);
    expect(texts('echo a#b')).toEqual(['echo a#b']);
  });
  it('[G3] redirections are not part of the command; only writing ones are hazards, /dev/null and fd copies are not', () => {
    expect(splitCommand('ls 2>&1 >/dev/null < in.txt <<< word')).toMatchObject({ parts: [{ text: 'ls' }], hazards: [] });
    for (const c of ['ls > f', 'ls >> f', 'ls &> f', 'ls >| f', 'ls >&f', 'ls 2>err.log']) expect(splitCommand(c).hazards, c).toHaveLength(1);
  });
  it('[G3] here-document bodies are data, unless an unquoted one runs a substitution', () => {
    expect(splitCommand("cat <<'EOF'\nrm -rf / $(id)\nEOF\nls")).toMatchObject({ parts: [{ text: 'cat' }, { text: 'ls' }], hazards: [], statements: 2 });
    expect(splitCommand('cat <<EOF\n$(id)\nEOF').hazards).toEqual(['command substitution in a here-document']);
  });
  it('[G3] wrappers and assignments are seen through; the full text is kept for deny rules', () => {
    expect(splitCommand('FOO=1 timeout --signal KILL 5 nice -5 nohup env -i A=1 make -j4').parts).toEqual([{ text: 'make -j4', full: 'FOO=1 timeout --signal KILL 5 nice -5 nohup env -i A=1 make -j4' }]);
    expect(texts('env')).toEqual(['env']);
    expect(texts('X=1')).toEqual(['X=1']);
    expect(splitCommand('X=$HOME/bin').hazards).toEqual([]);
  });
  it('[G3] a function body is judged like any other commands', () => {
    expect(splitCommand('function f { rm -rf /; }')).toMatchObject({ parts: [{ text: 'rm -rf /' }], hazards: ['a function definition'] });
    expect(splitCommand('function f() { ls; }').parts).toEqual([{ text: 'ls', full: 'ls' }]);
  });
  it('[G3] the real parser judges validity: what it refuses asks', async () => {
    const a = await analyzeCommand('if true; then ls');
    expect(a.hazards.some((h) => h.startsWith('the command does not parse'))).toBe(true);
    expect((await analyzeCommand('ls -la | wc -l')).hazards).toEqual([]);
  });
  it('[G3] a command of plain words is judged without the parser, as the parser and the lexer would judge it', async () => {
    const parse = vi.mocked(sh.parseShell);
    const plain = ['npm run test src/a.test.ts', '  git log --oneline -n 5 -- src/x.ts\t', 'FOO=1 timeout 30 npx tsc -p a.json', 'sudo rm -rf /', 'cd ~/w', 'x=1', 'nice -n 5 make'];
    for (const c of plain) {
      parse.mockClear();
      const judged = await analyzeCommand(c);
      expect(parse, c).not.toHaveBeenCalled();
      expect(judged, c).toEqual(splitCommand(c));
      const file = await sh.parseShell(c, { keepComments: false });
      expect([file.Stmts.length, file.Stmts[0].Redirs ?? []], c).toEqual([1, []]);
    }
    // Anything else goes to the parser: quotes, operators, expansions, and the words bash's grammar reads itself.
    for (const c of ['fi x', 'done', 'let =', 'time ls', 'echo if', "echo 'a'", 'ls | wc', 'echo $HOME', 'ls > f', 'echo a # b', 'ls\nrm x']) {
      parse.mockClear();
      await analyzeCommand(c);
      expect(parse, c).toHaveBeenCalledTimes(1);
    }
    expect((await analyzeCommand('fi x')).hazards.some((h) => h.startsWith(UNPARSED))).toBe(true);
  });
  it('[G3] one parse per decision, however many rules', async () => {
    const res = compilePolicy({ rules: Array.from({ length: 20 }, (_, i) => ({ id: `r${i}`, rule: `Bash(tool${i} *)`, decision: 'allow' })) });
    if (!res.ok) throw new Error('policy');
    const parse = vi.mocked(sh.parseShell);
    parse.mockClear();
    const facts = { tool: 'Bash', input: { command: 'tool1 a && tool2 b; tool3 c' } };
    expect((await decide(res.policy, facts)).decision).toBe('allow');
    expect(parse).toHaveBeenCalledTimes(1);
    // The same command again is not parsed again.
    expect((await decide(res.policy, facts)).decision).toBe('allow');
    expect(parse).toHaveBeenCalledTimes(1);
  });
});
