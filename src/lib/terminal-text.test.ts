import { describe, expect, it } from 'vitest';
import { terminalJson, terminalLine, terminalText } from './terminal-text.ts';

const ESC = '\u001b';
const BEL = '\u0007';
/** Each sequence a captured string could carry: a window title, the clipboard, a hidden link, a colour, a cleared screen. */
const INJECTED = [`${ESC}]0;owned${BEL}`, `${ESC}]52;c;aGk=${BEL}`, `${ESC}]8;;https://evil.test${ESC}\\click${ESC}]8;;${ESC}\\`, `${ESC}[31mred${ESC}[0m`, `${ESC}P1$r${ESC}\\`, '\u009b2J'];
/** Anything a terminal acts on: C0 but \t and \n, DEL, C1. */
const ACTED_ON = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

describe('terminalText', () => {
  it('[V1][X1] leaves no control a terminal acts on: ESC, BEL, CSI, OSC, DCS, C1 and DEL show as U+FFFD', () => {
    for (const seq of INJECTED) {
      const shown = terminalText(`a${seq}b\u007f`);
      expect(shown).not.toMatch(ACTED_ON);
      expect(shown.startsWith('a\uFFFD')).toBe(true);
    }
    expect(terminalText(`${ESC}]0;owned${BEL}`)).toBe('\uFFFD]0;owned\uFFFD');
    expect(terminalText(`${ESC}[31mred`)).toBe('\uFFFD[31mred');
    expect(terminalText('\u009b2J')).toBe('\uFFFD2J');
    expect(terminalText('x\ry')).toBe('x\uFFFDy');
  });

  it('[V1] shows bidi overrides, isolates, marks and the Unicode separators as their escape', () => {
    expect(terminalText('invoice\u202Efdp.exe')).toBe('invoice\\u202Efdp.exe');
    expect(terminalText('\u2066a\u2069 \u202A\u202B\u202C\u202D \u2067\u2068 \u200E\u200F\u061C \u2028\u2029')).toBe(
      '\\u2066a\\u2069 \\u202A\\u202B\\u202C\\u202D \\u2067\\u2068 \\u200E\\u200F\\u061C \\u2028\\u2029',
    );
  });

  it('keeps line breaks and tabs where the place has room, and ordinary text as it is', () => {
    expect(terminalText('one\r\ntwo\n\tthree')).toBe('one\ntwo\n\tthree');
    expect(terminalText('a\tb', { tabSize: 4 })).toBe('a    b');
    expect(terminalText('Déploiement ✓ 環境 👍 "quoted" \\u202E')).toBe('Déploiement ✓ 環境 👍 "quoted" \\u202E');
  });

  it('terminalLine keeps a one-line place to one line', () => {
    expect(terminalLine('Title\nsecond\tpart\r\n')).toBe('Title↵second part↵');
  });
});

describe('terminalJson', () => {
  it('[X1] is the same JSON value with nothing a terminal acts on and no bidi character printed raw', () => {
    const value = { answer: [`${ESC}]0;t${BEL}`, '\u009b31m', '\u007f', 'a\u202Eb', '\u2066x\u2069'] };
    const json = terminalJson(value);
    expect(json).not.toMatch(ACTED_ON);
    expect(json).not.toMatch(/[\u202a-\u202e\u2066-\u2069]/);
    expect(json).toContain('a\\u202Eb');
    expect(JSON.parse(json)).toEqual(value);
  });
});
