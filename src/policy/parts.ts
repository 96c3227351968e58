/**
 * G3: from tokens to the simple commands a rule judges. Lists, pipelines, subshells, braces and if/while/until/for
 * bodies are walked into; `case` and function definitions are hazards (the command asks); wrappers (`timeout N`,
 * `nice [-n N]`, `nohup`, `env X=1`) and leading assignments (`VAR=1 cmd`) are seen through.
 */
import { hazard, lex, type LexContext, type Tok } from './lexer.ts';
import { ASSIGNMENT, runsAs, stripWrappers } from './wrappers.ts';

export interface ShellPart {
  /** The command a rule judges: its words without wrappers, assignments or redirections. */
  text: string;
  /** The same command as written, wrappers and assignments included. */
  full: string;
  /** The command another runs for it (`sudo rm x`, `xargs rm`: `rm x`, `rm`), which deny and ask rules also judge. */
  inner?: string;
}

export interface ShellSplit {
  parts: ShellPart[];
  /** Why no rule may allow this command (substitutions, writing redirections, what cannot be seen). */
  hazards: string[];
  /** Top-level statements (split on ;, & and new lines), checked against the real parser's count. */
  statements: number;
}

const OPENERS = new Set(['if', 'while', 'until', 'for', 'select', '{']);
const CLOSERS = new Set(['fi', 'done', '}']);
const DROPPED = new Set(['then', 'else', 'elif', 'do', '!']);
const SEPARATORS = new Set([';', '&', '\n', ';;', ';&', ';;&']);
const WRITES = new Set(['>', '>>', '>|', '&>', '&>>', '<>']);

function isOp(tok: Tok | undefined, op: string): boolean {
  return tok?.t === 'op' && tok.op === op;
}

function writes(op: string, target: string): boolean {
  if (target === '/dev/null') return false; // discarding output writes no file
  if (op === '>&') return !/^(\d+|-)$/.test(target);
  return WRITES.has(op);
}

/** Walks tokens into simple commands; `into` collects parts and hazards across nested substitutions. */
function walk(toks: readonly Tok[], ctx: LexContext, parts: ShellPart[]): number {
  let cmd: Tok[] = [];
  let depth = 0;
  let statements = 0;
  let open = false;
  let skipToSeparator = false; // the words of `for NAME in WORDS` are no command
  let caseDepth = 0;
  const flush = () => {
    if (!skipToSeparator && cmd.length) simple(cmd, ctx, parts);
    cmd = [];
    skipToSeparator = false;
  };
  for (let k = 0; k < toks.length; k++) {
    const tok = toks[k];
    if (caseDepth > 0) {
      if (tok.t === 'w' && tok.raw === 'case') caseDepth++;
      if (tok.t === 'w' && tok.raw === 'esac') caseDepth--;
      continue;
    }
    if (tok.t === 'op') {
      if (tok.op === '(' && cmd.length === 1 && cmd[0].t === 'w' && isOp(toks[k + 1], ')')) {
        ctx.hazards.push('a function definition');
        cmd = [];
        k++;
        continue;
      }
      flush();
      if (tok.op === '(' || tok.op === ')') {
        depth += tok.op === '(' ? 1 : -1;
        open = true;
      } else if (SEPARATORS.has(tok.op) && depth === 0 && open) {
        statements++;
        open = false;
      }
      continue;
    }
    open = true;
    if (skipToSeparator) continue;
    const atCommand = !cmd.some((t) => t.t === 'w') && !(cmd.length && cmd[cmd.length - 1].t === 'redir');
    if (tok.t === 'w' && atCommand) {
      const w = tok.raw;
      if (w === 'case') {
        ctx.hazards.push('a case statement');
        caseDepth = 1;
        continue;
      }
      if (w === 'coproc') {
        ctx.hazards.push('a coproc');
        continue;
      }
      if (w === 'function') {
        // `function NAME [()] BODY`: the body's commands are judged like any others.
        ctx.hazards.push('a function definition');
        if (toks[k + 1]?.t === 'w') k++;
        if (isOp(toks[k + 1], '(') && isOp(toks[k + 2], ')')) k += 2;
        continue;
      }
      if (OPENERS.has(w) || CLOSERS.has(w) || DROPPED.has(w)) {
        if (OPENERS.has(w)) depth++;
        if (CLOSERS.has(w)) depth--;
        if (w === 'for' || w === 'select') skipToSeparator = true;
        continue;
      }
    }
    cmd.push(tok);
  }
  flush();
  if (open && depth === 0) statements++;
  if (depth !== 0) ctx.hazards.push('unbalanced ( ) or { } or blocks');
  return statements;
}

function simple(toks: readonly Tok[], ctx: LexContext, parts: ShellPart[]): void {
  const words: string[] = [];
  for (let k = 0; k < toks.length; k++) {
    const tok = toks[k];
    if (tok.t === 'redir') {
      const target = toks[k + 1];
      const raw = target?.t === 'w' ? target.raw : '';
      if (target?.t === 'w') k++;
      if (writes(tok.op, raw)) hazard(ctx, `a writing redirection (${tok.op} ${raw})`);
    } else if (tok.t === 'w') words.push(tok.raw);
  }
  if (!words.length) return;
  if (words[0] === 'time') words.splice(0, words[1] === '-p' ? 2 : 1);
  if (!words.length) return;
  const stripped = stripWrappers(words);
  const name = stripped[0] ?? words[0];
  // A name from a variable, a substitution, a brace expansion or a glob ({rm,-rf,x}) runs what no rule can see.
  if (!ASSIGNMENT.test(name) && /[$`{}*?[\]]/.test(name)) hazard(ctx, `a command name askdock cannot read (${name})`);
  const text = (stripped.length ? stripped : words).join(' ');
  const inner = runsAs(stripped);
  parts.push({ text, full: words.join(' '), ...(inner && inner !== text ? { inner } : {}) });
}

/** Splits a command with the lexer alone (sync); shell.ts adds the real parser's verdict. */
export function splitCommand(command: string): ShellSplit {
  const ctx: LexContext = { hazards: [], nested: [] };
  const parts: ShellPart[] = [];
  const { toks } = lex(command, ctx);
  const statements = walk(toks, ctx, parts);
  for (let q = 0; q < ctx.nested.length; q++) walk(ctx.nested[q], ctx, parts);
  return { parts, hazards: [...new Set(ctx.hazards)], statements };
}

/**
 * A command of plain words only (letters, digits and `_@%+=:,./~-`, split by spaces or tabs), none of them a word the
 * shell's grammar gives a meaning (`if`, `done`, `let`...): bash can read it only as one simple command with no
 * redirection, expansion or substitution, so the real parser has nothing to add and the lexer nothing to find.
 */
const PLAIN = /^[ \t]*[\w@%+=:,./~-]+(?:[ \t]+[\w@%+=:,./~-]+)*[ \t]*$/;
const GRAMMAR_WORDS = new Set(['if', 'then', 'else', 'elif', 'fi', 'case', 'esac', 'for', 'select', 'while', 'until', 'do', 'done', 'in', 'function', 'time', 'coproc', 'let', 'declare', 'local', 'export', 'readonly', 'typeset', 'nameref', 'alias']);

export function plainWords(command: string): string[] | null {
  if (!PLAIN.test(command)) return null;
  const words = command.trim().split(/[ \t]+/);
  return words.some((w) => GRAMMAR_WORDS.has(w)) ? null : words;
}

/** splitCommand for plain words (plainWords): the same parts, without the lexer. */
export function splitPlain(words: readonly string[]): ShellSplit {
  const ctx: LexContext = { hazards: [], nested: [] };
  const parts: ShellPart[] = [];
  const statements = walk(words.map((raw): Tok => ({ t: 'w', raw })), ctx, parts);
  return { parts, hazards: [...new Set(ctx.hazards)], statements };
}
