/**
 * G3: from tokens to the simple commands a rule judges. Lists, pipelines, subshells, braces and if/while/until/for
 * bodies are walked into; `case` and function definitions are hazards (the command asks); wrappers (`timeout N`,
 * `nice [-n N]`, `nohup`, `env X=1`) and leading assignments (`VAR=1 cmd`) are seen through.
 */
import { lex, type LexContext, type Tok } from './lexer.ts';

export interface ShellPart {
  /** The command a rule judges: its words without wrappers, assignments or redirections. */
  text: string;
  /** The same command as written, wrappers and assignments included. */
  full: string;
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
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*(\[[^\]]*\])?\+?=/;
const WRITES = new Set(['>', '>>', '>|', '&>', '&>>', '<>']);

function isOp(tok: Tok | undefined, op: string): boolean {
  return tok?.t === 'op' && tok.op === op;
}

function writes(op: string, target: string): boolean {
  if (target === '/dev/null') return false; // discarding output writes no file
  if (op === '>&') return !/^(\d+|-)$/.test(target);
  return WRITES.has(op);
}

/** Drops leading assignments and process wrappers; an unknown wrapper option keeps the wrapper in the text. */
export function stripWrappers(words: readonly string[]): string[] {
  let w = words.slice();
  for (let changed = true; changed && w.length; ) {
    changed = false;
    let skip = 0;
    while (skip < w.length && ASSIGNMENT.test(w[skip])) skip++;
    const cmd = w[skip];
    if (cmd === 'nohup') skip++;
    else if (cmd === 'timeout') {
      let k = skip + 1;
      while (w[k]?.startsWith('-')) k += ['-s', '-k', '--signal', '--kill-after'].includes(w[k]) ? 2 : 1;
      if (k < w.length - 1) skip = k + 1;
    } else if (cmd === 'nice') {
      const a = w[skip + 1];
      if (a === '-n' || a === '--adjustment') skip += 3;
      else if (a !== undefined && /^(-\d+|--adjustment=.*)$/.test(a)) skip += 2;
      else skip++;
    } else if (cmd === 'env') {
      let k = skip + 1;
      for (;;) {
        const a = w[k];
        if (a === '-i' || a === '-' || a === '--ignore-environment' || (a !== undefined && (ASSIGNMENT.test(a) || a.startsWith('--unset=')))) k++;
        else if (a === '-u' || a === '--unset') k += 2;
        else break;
      }
      if (w[k] === undefined || !w[k].startsWith('-')) skip = k;
    }
    if (skip > 0 && skip < w.length) {
      w = w.slice(skip);
      changed = true;
    }
  }
  return w;
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
      if (writes(tok.op, raw)) {
        const why = `a writing redirection (${tok.op} ${raw})`;
        if (!ctx.hazards.includes(why)) ctx.hazards.push(why);
      }
    } else if (tok.t === 'w') words.push(tok.raw);
  }
  if (!words.length) return;
  if (words[0] === 'time') words.splice(0, words[1] === '-p' ? 2 : 1);
  if (!words.length) return;
  const stripped = stripWrappers(words);
  parts.push({ text: (stripped.length ? stripped : words).join(' '), full: words.join(' ') });
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
