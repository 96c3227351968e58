/**
 * `askdock ask "Question?" -o A -o B`: one question from a shell. Prints the answer, exits by outcome:
 * 0 answered, 1 connection or gateway failure, 2 bad arguments, 3 skipped, 4 expired, 5 cancelled (Ctrl+C too).
 */
import { parseArgs } from 'node:util';
import { AskdockError, HEADER_MAX, cutCodePoints, type FieldProblem } from '../protocol/index.ts';
import { DEFAULT_TIMEOUT_SECONDS, MAX_TIMEOUT_SECONDS, MIN_TIMEOUT_SECONDS, validateAskUser, type AskUserInput, type AskUserResult } from '../agent/ask-user.ts';
import { EXIT, failure, intFlag, usageError } from './args.ts';
import { resolveEndpoint } from './endpoint.ts';
import { connect } from '../agent/sdk.ts';

export const ASK_USAGE = [
  'usage: askdock ask "Question?" -o A -o B [-o C] [-o D] [--multi] [--header H] [--timeout S] [--session KEY] [--json]',
  '                   [--url ws://127.0.0.1:7420] [--token T]',
  'exit: 0 answered, 1 gateway failure, 2 bad arguments, 3 skipped, 4 expired, 5 cancelled',
].join('\n');

/** The answer key of the one question `askdock ask` asks; `--json` output reads `answers.answers.answer`. */
export const ASK_QUESTION_ID = 'answer';

/** Words that start questions but say little as a label. */
const FILLER = new Set(
  'which what where when who whom how why should shall do does did is are am was were can could would will may might must we i you it the a an to'.split(' '),
);

/** A short label from the question itself: leading filler words dropped, whole words up to 12 characters. */
export function headerFromQuestion(question: string): string {
  const words = question.trim().replace(/[?!.:;,]+$/u, '').split(/\s+/).filter(Boolean);
  let start = 0;
  while (start < words.length - 1 && FILLER.has(words[start].toLowerCase())) start++;
  let out = '';
  for (const word of words.slice(start)) {
    const next = out ? `${out} ${word}` : word;
    if (Array.from(next).length > HEADER_MAX) break;
    out = next;
  }
  if (!out) out = cutCodePoints(words[start] ?? question.trim(), HEADER_MAX);
  return out ? out[0].toUpperCase() + out.slice(1) : 'Question';
}

export type AskArgs = { input: AskUserInput; json: boolean; sessionKey?: string; url?: string; token?: string };

/** Names a validation path the way the user typed it: `-o #3 ("Other")`, `--header`, `--timeout`. */
function flagFor(path: string, options: string[]): string {
  const opt = /^questions\[0\]\.options\[(\d+)\]/.exec(path);
  if (opt) return `-o #${Number(opt[1]) + 1} ("${options[Number(opt[1])] ?? ''}")`;
  if (path === 'questions[0].options') return '-o';
  if (path === 'questions[0].header') return '--header';
  if (path === 'questions[0].question') return 'the question';
  if (path === 'questions[0].multiSelect') return '--multi';
  if (path === 'timeoutSeconds') return '--timeout';
  return path;
}

export function describeProblems(problems: FieldProblem[], options: string[]): string {
  return problems.map((p) => `${flagFor(p.path, options)}: ${p.problem}`).join('\n');
}

/** Parses argv into an ask_user call; throws an Error whose message names the flag and the rule. */
export function parseAskArgs(argv: string[]): AskArgs {
  const { values, positionals } = parseArgs({
    args: argv,
    options: {
      option: { type: 'string', short: 'o', multiple: true },
      multi: { type: 'boolean' },
      header: { type: 'string' },
      timeout: { type: 'string' },
      session: { type: 'string' },
      json: { type: 'boolean' },
      url: { type: 'string' },
      token: { type: 'string' },
    },
    allowPositionals: true,
    strict: true,
  });
  if (positionals.length === 0) throw new Error('the question is missing: askdock ask "Question?" -o A -o B');
  if (positionals.length > 1) {
    throw new Error(`expected one question in quotes, got ${positionals.length} words: quote it, as in askdock ask "${positionals.join(' ')}" -o A -o B`);
  }
  const question = positionals[0];
  const options = values.option ?? [];
  const timeoutSeconds = intFlag(
    '--timeout',
    values.timeout,
    `a whole number of seconds (default ${DEFAULT_TIMEOUT_SECONDS}, clamped to ${MIN_TIMEOUT_SECONDS}..${MAX_TIMEOUT_SECONDS})`,
  );
  const input: AskUserInput = {
    questions: [
      {
        id: ASK_QUESTION_ID,
        header: values.header ?? headerFromQuestion(question),
        question,
        options: options.map((label) => ({ label })),
        ...(values.multi ? { multiSelect: true } : {}),
      },
    ],
    ...(timeoutSeconds !== undefined ? { timeoutSeconds } : {}),
  };
  const checked = validateAskUser(input);
  if (!checked.ok) throw new Error(describeProblems(checked.problems, options));
  return {
    input,
    json: values.json === true,
    ...(values.session ? { sessionKey: values.session } : {}),
    ...(values.url ? { url: values.url } : {}),
    ...(values.token ? { token: values.token } : {}),
  };
}

export function exitCodeFor(result: AskUserResult): number {
  if (result.status === 'answered') return EXIT.answered;
  return EXIT[result.reason];
}

export async function runAsk(argv: string[]): Promise<number> {
  if (argv[0] === '--help' || argv[0] === '-h') {
    process.stdout.write(ASK_USAGE + '\n');
    return EXIT.answered;
  }
  let args: AskArgs;
  let endpoint;
  try {
    args = parseAskArgs(argv);
    endpoint = resolveEndpoint(args);
  } catch (err) {
    return usageError('ask', err, ASK_USAGE);
  }
  const print = (result: AskUserResult) => {
    if (args.json) process.stdout.write(JSON.stringify(result) + '\n');
    else if (result.status === 'answered') process.stdout.write((result.answers.answers[ASK_QUESTION_ID] ?? []).join(', ') + '\n');
    else process.stderr.write(`askdock ask: no answer (${result.reason})\n`);
    return exitCodeFor(result);
  };

  const controller = new AbortController();
  let interrupts = 0;
  const onSigint = () => {
    interrupts += 1;
    // A second Ctrl+C does not wait for the gateway to confirm the cancel.
    if (interrupts > 1) process.exit(EXIT.cancelled);
    controller.abort(new Error('interrupted'));
  };
  process.on('SIGINT', onSigint);
  process.on('SIGTERM', onSigint);
  let agent;
  try {
    agent = await connect({ ...endpoint, name: 'askdock-cli', mode: 'cli' });
  } catch (err) {
    process.off('SIGINT', onSigint);
    process.off('SIGTERM', onSigint);
    if (controller.signal.aborted) return print({ status: 'no_answer', reason: 'cancelled' });
    return failure('ask', err);
  }
  const offState = agent.client.onState((s) => {
    if (s.status === 'reconnecting') process.stderr.write(`askdock ask: connection lost (${s.lastError?.message ?? 'closed'}); reconnecting\n`);
  });
  try {
    const result = await agent.askUser(args.input, {
      signal: controller.signal,
      ...(args.sessionKey ? { sessionKey: args.sessionKey } : {}),
    });
    return print(result);
  } catch (err) {
    if (controller.signal.aborted) return print({ status: 'no_answer', reason: 'cancelled' });
    if (err instanceof AskdockError && err.code === 'INVALID_REQUEST') return usageError('ask', err, ASK_USAGE);
    return failure('ask', err);
  } finally {
    offState();
    process.off('SIGINT', onSigint);
    process.off('SIGTERM', onSigint);
    agent.close();
  }
}
