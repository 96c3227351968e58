import { describe, expect, it } from 'vitest';
import { parseToolRule } from './tool-rule.ts';

describe('the request askdock policy check asks about (G9)', () => {
  it('[G9] a tool and its argument become the tool and its input', () => {
    expect(parseToolRule('Bash(git push origin main)')).toEqual({ tool: 'Bash', input: { command: 'git push origin main' } });
    expect(parseToolRule('Bash(echo "(a)")')).toEqual({ tool: 'Bash', input: { command: 'echo "(a)"' } });
    expect(parseToolRule('Edit(src/a.ts)')).toEqual({ tool: 'Edit', input: { file_path: 'src/a.ts' } });
    expect(parseToolRule('WebFetch(https://example.com/x)')).toEqual({ tool: 'WebFetch', input: { url: 'https://example.com/x' } });
    expect(parseToolRule('mcp__github__create_issue', '{"repo":"a/b"}')).toEqual({ tool: 'mcp__github__create_issue', input: { repo: 'a/b' } });
  });

  it('[G9] what is not a request is refused naming the argument and the rule', () => {
    expect(() => parseToolRule('git push')).toThrow('TOOL-RULE: "git push" is not a tool and its argument');
    expect(() => parseToolRule('Bash()')).toThrow('has nothing between the parentheses');
    expect(() => parseToolRule('mcp__x__y(1)')).toThrow('mcp__x__y takes no argument in parentheses; give its input with --input JSON');
    expect(() => parseToolRule('Bash(ls)', '[1]')).toThrow('--input: must be a JSON object');
    expect(() => parseToolRule('Bash(ls)', '{')).toThrow('--input: not JSON');
  });
});
