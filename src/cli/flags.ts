/** Reads a command's flags as `node:util` parseArgs does in strict mode, but finds every problem, not just the first. */
import { parseArgs } from 'node:util';

type OptionSpec = { type: 'string' | 'boolean'; short?: string; multiple?: boolean };
export type FlagValues = Record<string, string | boolean | string[] | undefined>;
export type ReadFlags = { values: FlagValues; positionals: string[]; problems: string[] };

/**
 * Flags as `--flag VALUE` or `--flag=VALUE` (`-o VALUE`, `-oVALUE` for short ones). Each problem names the flag as
 * typed: an unknown flag, a value missing (or one starting with "-", which needs `--flag=VALUE`), a value on a switch.
 */
export function readFlags(argv: string[], options: Record<string, OptionSpec>, command: string): ReadFlags {
  const { tokens } = parseArgs({ args: argv, options, strict: false, allowPositionals: true, tokens: true });
  const values: FlagValues = {};
  const positionals: string[] = [];
  const problems: string[] = [];
  for (const token of tokens) {
    if (token.kind === 'positional') positionals.push(token.value);
    if (token.kind !== 'option') continue;
    const spec = Object.hasOwn(options, token.name) ? options[token.name] : undefined;
    if (!spec) {
      problems.push(`${token.rawName}: not an option of askdock ${command}`);
    } else if (spec.type === 'boolean') {
      if (token.value !== undefined) problems.push(`${token.rawName}: takes no value, got "${token.value}"`);
      else values[token.name] = true;
    } else if (token.value === undefined) {
      problems.push(`${token.rawName}: needs a value`);
    } else if (!token.inlineValue && token.value.startsWith('-') && token.value.length > 1) {
      problems.push(`${token.rawName}: needs a value; to give one that starts with "-", write ${token.rawName}=${token.value}`);
    } else if (spec.multiple) {
      values[token.name] = [...((values[token.name] as string[] | undefined) ?? []), token.value];
    } else {
      values[token.name] = token.value;
    }
  }
  return { values, positionals, problems };
}
