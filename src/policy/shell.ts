/**
 * G3: a shell command judged part by part. mvdan/sh (sh-syntax, WebAssembly) decides whether the command is valid
 * bash and where its top-level statements and their redirections are; the lexer (lexer.ts, parts.ts) splits each
 * statement further. A command that does not parse, or where the two disagree, can never be allowed by a rule.
 */
import { parseShell } from './sh-parse.ts';
import { plainWords, splitCommand, splitPlain, type ShellSplit } from './parts.ts';

export type { ShellPart, ShellSplit } from './parts.ts';
export { splitCommand } from './parts.ts';

export const UNPARSED = 'the command does not parse as a shell command';

// A parse costs tens of microseconds (sh-parse.ts), the lexer as much again; agents repeat their commands: keep recent results.
const CACHE_MAX = 500;
const CACHE_TEXT_MAX = 4096;
const cache = new Map<string, Promise<ShellSplit>>();

/** The parts and hazards of a command; the same text is parsed once while it stays among the recent ones. */
export function analyzeCommand(command: string): Promise<ShellSplit> {
  if (command.length > CACHE_TEXT_MAX) return analyze(command);
  const hit = cache.get(command);
  if (hit) {
    cache.delete(command);
    cache.set(command, hit);
    return hit;
  }
  const fresh = analyze(command);
  cache.set(command, fresh);
  if (cache.size > CACHE_MAX) cache.delete(cache.keys().next().value as string);
  return fresh;
}

async function analyze(command: string): Promise<ShellSplit> {
  // Plain words are one simple command to bash and to the lexer alike: judged by the same walk, without either parse.
  const plain = plainWords(command);
  if (plain) return splitPlain(plain);
  const split = splitCommand(command);
  const hazards = [...split.hazards];
  try {
    const file = await parseShell(command, { keepComments: false });
    if (file.Stmts.length !== split.statements) hazards.push('the command has a structure askdock cannot see');
    for (const stmt of file.Stmts) {
      for (const r of stmt.Redirs ?? []) {
        const target = r.Word?.Lit ?? '';
        const writing = ['>', '>>', '>|', '&>', '&>>', '<>'].includes(r.Op) || (r.Op === '>&' && !/^(\d+|-)$/.test(target));
        if (writing && target !== '/dev/null' && !hazards.some((h) => h.startsWith('a writing redirection'))) {
          hazards.push(`a writing redirection (${r.Op} ${target})`);
        }
      }
    }
  } catch (err) {
    hazards.push(`${UNPARSED} (${err instanceof Error ? err.message : String(err)})`);
  }
  return { ...split, hazards };
}
