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
import { newId } from '../lib/ids.ts';
import { AskdockError, type QuestionItemInput, type QuestionRecord } from '../protocol/index.ts';
import { answerLines } from '../answers/summary.ts';
import { severalField } from '../answers/kinds/choice.ts';
import type { AskUserResult } from './ask-user.ts';
import { abortError, isSuperseded, type Agent, type UserMessage } from './sdk.ts';

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
    ...severalField(true),
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
export function deployReport(result: AskUserResult, questions: readonly QuestionItemInput[] = DEPLOY_QUESTIONS): string {
  if (result.status === 'no_answer') return `No answer (${result.reason}) — continuing with my own judgment`;
  // What it got, exactly as answered (the model's text names options without their mark).
  return `Got: ${answerLines(questions.map((q) => ({ id: q.id, header: q.header ?? '', question: q.question })), result.answers.answers).join('; ')}`;
}

/** The demo agent's own blocking questions carry this id prefix, so a restarted demo agent knows which to take back. */
export const DEMO_QUESTION_PREFIX = 'demo-';

/** A pending question this demo agent asked before it restarted, whose run still waits for the answer. */
function isOwnWaiting(q: QuestionRecord, identity: string | undefined): q is QuestionRecord & { runId: string; sessionKey: string } {
  return q.mode === 'blocking' && q.askedBy === identity && q.id.startsWith(DEMO_QUESTION_PREFIX) && !!q.runId && !!q.sessionKey;
}

export type DemoAgentOptions = {
  agent: Agent;
  log?: (line: string) => void;
  /** Pause between streamed pieces of the `slow` reply. */
  slowStepMs?: number;
};

export type DemoAgent = {
  /**
   * Stops serving. By default it cancels its pending questions and ends its open runs as aborted. With `keepQuestions`
   * it leaves both as they are (close the gateway first, then this): a demo agent started again on the same gateway
   * with the same client id takes its pending questions back and reports their answers.
   */
  close(opts?: { keepQuestions?: boolean }): Promise<void>;
};

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

/** Starts serving every session, and takes back the questions it asked before a restart; see `close()`. */
export async function startDemoAgent(opts: DemoAgentOptions): Promise<DemoAgent> {
  const { agent } = opts;
  const log = opts.log ?? ((line: string) => process.stderr.write(`askdock demo-agent: ${line}\n`));
  const stepMs = opts.slowStepMs ?? 250;
  const stopping = new AbortController();
  const running = new Set<Promise<void>>();
  /** Set by close({ keepQuestions }): what fails from here on is the connection going away, and nothing is ended. */
  let leaving = false;

  function track(work: Promise<void>, what: string) {
    const p = work.catch((err) => {
      if (!leaving) log(`${what}: ${err instanceof Error ? err.message : String(err)}`);
    });
    running.add(p);
    void p.finally(() => running.delete(p));
  }

  async function inRun(sessionKey: string, body: (runId: string) => Promise<'end_turn' | 'error'>) {
    const runId = await agent.startRun(sessionKey);
    await finishRun(runId, () => body(runId));
  }

  async function finishRun(runId: string, body: () => Promise<'end_turn' | 'error'>) {
    let stop: 'end_turn' | 'error' | 'aborted' | 'cancelled' = 'error';
    try {
      stop = await body();
    } catch (err) {
      if (leaving) return;
      if (stopping.signal.aborted) stop = 'aborted';
      else if (isSuperseded(err)) {
        // RU2: a newer user turn took over (or the run was aborted): this one ends without a word.
        stop = 'cancelled';
        log(`run ${runId} superseded: ending it`);
      } else {
        log(`run ${runId} failed: ${err instanceof Error ? err.message : String(err)}`);
        await agent.say(runId, `Something went wrong: ${err instanceof Error ? err.message : String(err)}`).catch(() => undefined);
      }
    }
    if (leaving) return;
    await agent.endRun(runId, stop).catch((err) => log(`run.end ${runId}: ${String(err)}`));
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
        text = `Thanks — ${answerLines(question.questions, question.answers).join('; ')}`;
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
              { sessionKey, runId, signal: stopping.signal, id: `${DEMO_QUESTION_PREFIX}${newId()}` },
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

  /** A question asked before a restart: its run waits for the answer again and reports it, as it would have. */
  async function takeBack(q: QuestionRecord & { runId: string }) {
    log(`${q.sessionKey}: waiting again for question ${q.id}`);
    await finishRun(q.runId, async () => {
      const result = await agent.waitAnswer(q.id, { signal: stopping.signal });
      await agent.say(q.runId, deployReport(result, q.questions));
      return 'end_turn';
    });
  }

  const off = await agent.onUserMessage((message) => {
    if (stopping.signal.aborted || leaving) return;
    track(handle(message), `message ${message.id}`);
  });
  const { questions } = await agent.client.request('question.list', { status: 'pending' });
  for (const q of questions) if (isOwnWaiting(q, agent.identity)) track(takeBack(q), `question ${q.id}`);
  log('serving every session');

  return {
    async close(opts = {}) {
      off();
      if (opts.keepQuestions) {
        leaving = true;
        return;
      }
      stopping.abort(new Error('demo agent stopping'));
      let timer: ReturnType<typeof setTimeout> | undefined;
      const late = new Promise((r) => (timer = setTimeout(r, 3_000)));
      await Promise.race([Promise.allSettled([...running]), late]);
      clearTimeout(timer);
    },
  };
}
