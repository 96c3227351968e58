/**
 * `askdock policy import claude-code FILE…` / `askdock policy import codex FILE…` (G8): the rules of Claude Code
 * settings files (`permissions.allow/ask/deny`) or Codex `.rules` files (`prefix_rule(…)`) as askdock policy JSON on
 * stdout. A rule that cannot be expressed is refused on stderr with the rule and why, never dropped silently; warnings
 * go to stderr too. Exit 0 printed (refusals or not), 1 a file that cannot be read, 2 bad arguments.
 */
import { readFileSync } from 'node:fs';
import { importClaudeCode, importCodex, type PolicyImport } from '../policy/index.ts';
import { terminalJson, terminalText } from '../lib/terminal-text.ts';
import { EXIT, failure, usageError } from './args.ts';

export const IMPORT_USAGE = [
  'usage: askdock policy import claude-code FILE…   (Claude Code settings.json files)',
  '       askdock policy import codex FILE…         (Codex .rules files)',
  'prints policy JSON ({"rules": [...]}) for approvals.file or the config\'s approvals; refused rules and warnings on stderr',
  'exit: 0 printed, 1 a file that cannot be read, 2 bad arguments',
].join('\n');

const COMMAND = 'policy import';
const IMPORTERS: Record<string, (files: { path: string; text: string }[]) => PolicyImport> = { 'claude-code': importClaudeCode, codex: importCodex };

export async function run(argv: string[]): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(IMPORT_USAGE + '\n');
    return EXIT.answered;
  }
  const [format, ...paths] = argv;
  const importer = format ? IMPORTERS[format] : undefined;
  if (!importer) return usageError(COMMAND, new Error(format ? `unknown format "${format}": claude-code or codex` : 'the format is missing: claude-code or codex'), IMPORT_USAGE);
  const option = paths.find((p) => p.startsWith('-') && p !== '-');
  if (option) return usageError(COMMAND, new Error(`unknown option "${option}"`), IMPORT_USAGE);
  if (paths.length === 0) return usageError(COMMAND, new Error(`FILE is missing: askdock policy import ${format} FILE…`), IMPORT_USAGE);
  const files: { path: string; text: string }[] = [];
  for (const path of paths) {
    try {
      files.push({ path, text: readFileSync(path, 'utf8') });
    } catch (err) {
      return failure(COMMAND, new Error(`cannot read ${path}: ${err instanceof Error ? err.message : String(err)}`));
    }
  }
  const result = importer(files);
  const say = (line: string) => process.stderr.write(`askdock ${COMMAND}: ${terminalText(line)}\n`);
  for (const r of result.refused) say(`refused ${r.file}: ${r.rule}: ${r.why}`);
  for (const w of result.warnings) say(`warning: ${w}`);
  process.stdout.write(terminalJson(result.policy, 2) + '\n');
  return EXIT.answered;
}
