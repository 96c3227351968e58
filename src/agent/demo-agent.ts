/**
 * The scripted demo agent (PRODUCT "The demo agent"): deterministic, no model, serving every session.
 * Each user message opens a run in its session and, by the first keyword it contains (case-insensitive):
 *   deploy  asks a blocking two-question prompt (env, notify) and reports what it got;
 *   async   asks an async lunch question and ends its run at once;
 *   fail    ends its run with `error`;
 *   slow    streams a reply over about two seconds;
 *   else    echoes the message.
 * `timeout=N` in a deploy or async message sets timeoutSeconds N (clamped to 30..3600), for tests and demos.
 * A reply to an async question (`replyTo`) gets a short acknowledgement run; a plain reply to a blocking one (PT5) none.
 */
import { AskdockError, type QuestionItemInput } from '../protocol/index.ts';
import { resultText, type AskUserResult } from './ask-user.ts';
import { abortError, type Agent, type UserMessage } from './sdk.ts';

export const DEPLOY_QUESTIONS: QuestionItemInput[] = [
  {
    id: 'env',
    header: 'Environment',
    question: 'Where should I deploy?',
    options: [
      { label: 'Staging (Recommended)', description: 'Safe to try out; nobody depends on it.' },
      { label: 'Production', description: 'Live for every user.' },
    ],
  },
  {
    id: 'notify',
    header: 'Notify',
    question: 'Who should I notify when the deploy is done?',
    options: [{ label: 'Email' }, { label: 'Slack' }, { label: 'Pager' }],
    multiSelect: true,
  },
];

export const LUNCH_QUESTIONS: QuestionItemInput[] = [
  {
    id: 'lunch',
    header: 'Lunch',
    question: 'What should I order for lunch?',
    options: [{ label: 'Pizza (Recommended)' }, { label: 'Sushi' }, { label: 'Salad' }],
  },
];

export const SLOW_REPLY = 'Thinking it over slowly… here is a reply that arrives a few words at a time.';

export type DemoIntent = { kind: 'deploy' | 'async' | 'fail' | 'slow' | 'echo'; timeoutSeconds?: number };

/** Reads what a message asks for: the first matching keyword wins, in the order deploy, async, fail, slow. */
export function demoIntent(text: string): DemoIntent {
  const lower = text.toLowerCase();
  const t = /\btimeout\s*=\s*(\d+)\b/.exec(lower);
  const timeout = t ? { timeoutSeconds: Number(t[1]) } : {};
  for (const kind of ['deploy', 'async', 'fail', 'slow'] as const) {
    if (lower.includes(kind)) return { kind, ...(kind === 'deploy' || kind === 'async' ? timeout : {}) };
  }
  return { kind: 'echo' };
}

/** What the agent says after the deploy prompt, so a person sees what it got. */
export function deployReport(result: AskUserResult): string {
  if (result.status === 'no_answer') return `No answer (${result.reason}) — continuing with my own judgment`;
  return `Got: ${resultText(DEPLOY_QUESTIONS, result).split('\n').join('; ')}`;
}

export type DemoAgentOptions = {
  agent: Agent;
  log?: (line: string) => void;
  /** Pause between streamed pieces of the `slow` reply. */
  slowStepMs?: number;
};

export type DemoAgent = { close(): Promise<void> };

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal.aborted) return reject(abortError(signal));
    const t = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      reject(abortError(signal));
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });

/** Starts serving every session; `close()` cancels pending questions and ends open runs as aborted. */
export async function startDemoAgent(opts: DemoAgentOptions): Promise<DemoAgent> {
  const { agent } = opts;
  const log = opts.log ?? ((line: string) => process.stderr.write(`askdock demo-agent: ${line}\n`));
  const stepMs = opts.slowStepMs ?? 250;
  const stopping = new AbortController();
  const running = new Set<Promise<void>>();

  async function inRun(sessionKey: string, body: (runId: string) => Promise<'end_turn' | 'error'>) {
    const runId = await agent.startRun(sessionKey);
    let stop: 'end_turn' | 'error' | 'aborted' = 'error';
    try {
      stop = await body(runId);
    } catch (err) {
      if (stopping.signal.aborted) stop = 'aborted';
      else {
        log(`run ${runId} failed: ${err instanceof Error ? err.message : String(err)}`);
        await agent.say(runId, `Something went wrong: ${err instanceof Error ? err.message : String(err)}`).catch(() => undefined);
      }
    } finally {
      await agent.endRun(runId, stop).catch((err) => log(`run.end ${runId}: ${String(err)}`));
    }
  }

  async function acknowledge(message: UserMessage) {
    const questionId = message.replyTo!.questionId;
    const question = await agent.client
      .request('question.get', { id: questionId })
      .then((r) => r.question)
      // Not one of this agent's questions, or gone: the plain thanks will do.
      .catch(() => undefined);
    // A plain reply to a blocking question (PT5) answers the run that waits for it: that run reports it.
    if (question?.mode === 'blocking') return;
    await inRun(message.sessionKey, async (runId) => {
      let text = 'Thanks — got your reply.';
      if (question?.status === 'answered' && question.answers && Object.keys(question.answers).length) {
        const got = resultText(question.questions, { status: 'answered', answers: { answers: question.answers } });
        text = `Thanks — ${got.split('\n').join('; ')}`;
      }
      await agent.say(runId, text);
      return 'end_turn';
    });
  }

  async function handle(message: UserMessage) {
    if (message.replyTo) return acknowledge(message);
    const intent = demoIntent(message.text);
    const { sessionKey } = message;
    log(`${sessionKey}: ${intent.kind}`);
    await inRun(sessionKey, async (runId) => {
      switch (intent.kind) {
        case 'deploy': {
          let result: AskUserResult;
          try {
            result = await agent.askUser(
              { questions: DEPLOY_QUESTIONS, ...(intent.timeoutSeconds !== undefined ? { timeoutSeconds: intent.timeoutSeconds } : {}) },
              { sessionKey, runId, signal: stopping.signal },
            );
          } catch (err) {
            if (err instanceof AskdockError && err.code === 'QUESTION_PENDING') {
              await agent.say(runId, 'A question is already waiting in this session: answer or skip it first.');
              return 'end_turn';
            }
            throw err;
          }
          await agent.say(runId, deployReport(result));
          return 'end_turn';
        }
        case 'async': {
          await agent.askUserAsync(
            { questions: LUNCH_QUESTIONS, ...(intent.timeoutSeconds !== undefined ? { timeoutSeconds: intent.timeoutSeconds } : {}) },
            { sessionKey, runId },
          );
          await agent.say(runId, 'I asked about lunch; I will carry on meanwhile. Answer whenever you like.');
          return 'end_turn';
        }
        case 'fail':
          await agent.say(runId, 'This run fails on purpose.');
          return 'error';
        case 'slow': {
          const words = SLOW_REPLY.split(' ');
          const pieces = 8;
          const per = Math.ceil(words.length / pieces);
          for (let i = per; i < words.length; i += per) {
            await agent.stream(runId, words.slice(0, i).join(' '));
            await sleep(stepMs, stopping.signal);
          }
          await agent.say(runId, SLOW_REPLY);
          return 'end_turn';
        }
        case 'echo':
          await agent.say(runId, `Echo: ${message.text}`);
          return 'end_turn';
      }
    });
  }

  const off = await agent.onUserMessage((message) => {
    if (stopping.signal.aborted) return;
    const p = handle(message).catch((err) => log(`message ${message.id}: ${err instanceof Error ? err.message : String(err)}`));
    running.add(p);
    void p.finally(() => running.delete(p));
  });
  log('serving every session');

  return {
    async close() {
      off();
      stopping.abort(new Error('demo agent stopping'));
      let timer: ReturnType<typeof setTimeout> | undefined;
      const late = new Promise((r) => (timer = setTimeout(r, 3_000)));
      await Promise.race([Promise.allSettled([...running]), late]);
      clearTimeout(timer);
    },
  };
}
