import { runAsk } from './ask-command.ts';

/** `askdock ask`: see src/cli/ask-command.ts for flags and exit codes. */
export async function run(argv: string[]): Promise<number> {
  return runAsk(argv);
}
