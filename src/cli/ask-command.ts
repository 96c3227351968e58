/**
 * `askdock ask "Question?" -o A -o B`: one question from a shell. Prints the answer, exits by outcome:
 * 0 answered, 1 connection or gateway failure, 2 bad arguments, 3 skipped, 4 expired, 5 cancelled (Ctrl+C too).
 */
import { AskdockError, HEADER_MAX, cutCodePoints, type FieldProblem } from '../protocol/index.ts';
import { clampTimeoutSeconds, DEFAULT_TIMEOUT_SECONDS, MAX_TIMEOUT_SECONDS, MIN_TIMEOUT_SECONDS, validateAskUser, type AskUserInput, type AskUserResult } from '../agent/ask-user.ts';
import { EXIT, failure, intFlag, usageError } from './args.ts';
import { readFlags } from './flags.ts';
import { outageNotices } from './outage.ts';
import { resolveEndpoint, type Endpoint } from './endpoint.ts';
import { connect } from '../agent/sdk.ts';
import { questionPageUrl } from '../client/client.ts';
import { terminalJson, terminalText } from '../lib/terminal-text.ts';
import { SEVERAL_FIELD, severalField } from '../answers/kinds/choice.ts';

export const ASK_USAGE = [
  'usage: askdock ask "Question?" -o A -o B [-o C] [-o D] [--multi] [--header H] [--link URL] [--timeout S] [--session KEY] [--json]',
  '                   [--url ws://127.0.0.1:7420] [--token T]',
  'exit: 0 answered, 1 gateway failure, 2 bad arguments, 3 skipped, 4 expired, 5 cancelled',
].join('\n');

/** T6: sessions of `askdock ask` are titled `askdock ask · <folder>`. */
export const ASK_CLIENT_NAME = 'askdock ask';

/** The answer key of the one question `askdock ask` asks; `--json` output reads `answers.answers.answer`. */
export const ASK_QUESTION_ID = 'answer';

/** Words that start questions but say little as a label. */
const FILLER = new Set(
  ('which what where when who whom how why should shall do does did is are am was were be been can could would will may might must ' +
    'we i you it its this that these those there here our my your their me us the a an to of ok okay please now then')
    .split(' '),
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
  if (path === `questions[0].${SEVERAL_FIELD}`) return '--multi';
  if (path === 'questions[0].url') return '--link';
  if (path === 'timeoutSeconds') return '--timeout';
  return path;
}

export function describeProblems(problems: FieldProblem[], options: string[]): string {
  return problems.map((p) => `${flagFor(p.path, options)}: ${p.problem}`).join('\n');
}

const ASK_FLAGS = {
  option: { type: 'string', short: 'o', multiple: true },
  multi: { type: 'boolean' },
  header: { type: 'string' },
  link: { type: 'string' },
  timeout: { type: 'string' },
  session: { type: 'string' },
  json: { type: 'boolean' },
  url: { type: 'string' },
  token: { type: 'string' },
} as const;

/** Runs `read`, keeping its error's lines as problems; returns undefined then. */
function collect<T>(problems: string[], read: () => T): T | undefined {
  try {
    return read();
  } catch (err) {
    problems.push(...(err instanceof Error ? err.message : String(err)).split('\n'));
    return undefined;
  }
}

/**
 * Reads argv into an ask_user call and where to send it; every problem at once (T3), each naming the flag and the rule:
 * flags, the question, the options, --timeout, --url and --token.
 */
export function readAskArgs(argv: string[], env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): { args?: AskArgs; endpoint?: Endpoint; problems: string[] } {
  const { values, positionals, problems } = readFlags(argv, ASK_FLAGS, 'ask');
  const str = (name: string) => (typeof values[name] === 'string' ? (values[name] as string) : undefined);
  if (positionals.length === 0) problems.push('the question is missing: askdock ask "Question?" -o A -o B');
  if (positionals.length > 1) {
    problems.push(`expected one question in quotes, got ${positionals.length} words: quote it, as in askdock ask "${positionals.join(' ')}" -o A -o B`);
  }
  const question = positionals.length > 1 ? positionals.join(' ') : (positionals[0] ?? '');
  const options = (values.option as string[] | undefined) ?? [];
  const timeoutSeconds = collect(problems, () =>
    intFlag('--timeout', str('timeout'), `a whole number of seconds (default ${DEFAULT_TIMEOUT_SECONDS}, clamped to ${MIN_TIMEOUT_SECONDS}..${MAX_TIMEOUT_SECONDS})`),
  );
  const header = str('header');
  const link = str('link');
  const input: AskUserInput = {
    questions: [
      {
        id: ASK_QUESTION_ID,
        header: header ?? headerFromQuestion(question),
        question,
        options: options.map((label) => ({ label })),
        ...severalField(values.multi === true),
        ...(link !== undefined ? { url: link } : {}),
      },
    ],
    ...(timeoutSeconds !== undefined ? { timeoutSeconds } : {}),
  };
  const checked = validateAskUser(input);
  // A missing question is said once, above.
  if (!checked.ok) problems.push(...describeProblems(checked.problems.filter((p) => question || p.path !== 'questions[0].question'), options).split('\n').filter(Boolean));
  const flags = { ...(str('url') ? { url: str('url') } : {}), ...(str('token') ? { token: str('token') } : {}) };
  const endpoint = collect(problems, () => resolveEndpoint(flags, env, cwd));
  if (problems.length > 0) return { problems };
  const args = { input, json: values.json === true, ...(str('session') ? { sessionKey: str('session') } : {}), ...flags };
  return { args, endpoint, problems };
}

/** Parses argv into an ask_user call; throws an Error naming every flag at fault and its rule, one a line. */
export function parseAskArgs(argv: string[]): AskArgs {
  const { args, problems } = readAskArgs(argv, { ASKDOCK_TOKEN: 'unused-for-parsing' });
  if (!args) throw new Error(problems.join('\n'));
  return args;
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
  const { args, endpoint, problems } = readAskArgs(argv);
  if (!args || !endpoint) return usageError('ask', new Error(problems.join('\n')), ASK_USAGE);
  // Q3: a timeout outside 30..3600 s is clamped by the gateway; say so rather than wait longer (or shorter) in silence.
  const asked = args.input.timeoutSeconds;
  if (asked !== undefined && clampTimeoutSeconds(asked) !== asked) {
    const clamped = clampTimeoutSeconds(asked);
    const how = clamped > asked ? 'raised to the minimum' : 'lowered to the maximum';
    process.stderr.write(`askdock ask: --timeout ${asked} ${how}, ${clamped} s (timeouts are ${MIN_TIMEOUT_SECONDS}..${MAX_TIMEOUT_SECONDS} s)\n`);
  }
  const print = (result: AskUserResult) => {
    // A person's own words reach the shell: nothing in them may act on the terminal.
    if (args.json) process.stdout.write(terminalJson(result) + '\n');
    else if (result.status === 'answered') process.stdout.write(terminalText((result.answers.answers[ASK_QUESTION_ID] ?? []).join(', ')) + '\n');
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
  // One line per outage, not one per attempt.
  const notice = outageNotices((line) => process.stderr.write(`askdock ask: ${terminalText(line)}\n`));
  notice(agent.client.state);
  const offState = agent.client.onState(notice);
  try {
    // T6: without --session, the shell's own conversation for this folder.
    const sessionKey = args.sessionKey ?? (await agent.ownSession({ clientName: ASK_CLIENT_NAME, cwd: process.cwd() })).key;
    const result = await agent.askUser(args.input, {
      signal: controller.signal,
      sessionKey,
      askSource: 'cli',
      waitTurn: !args.sessionKey,
      // U11: the question's own page, for a person who is not looking at the Control UI right now.
      onAsked: ({ id }) => process.stderr.write(`askdock ask: waiting for an answer; answer it at ${questionPageUrl(agent.client.hello?.server.publicUrl ?? endpoint.url, id)}\n`),
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
