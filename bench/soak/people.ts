import type { GatewayClient } from '../../src/client/client.ts';
import { createNodeClient } from '../../src/client/node.ts';
import { AskdockError, type Answers, type QuestionRecord } from '../../src/protocol/index.ts';
import { formatAsyncAnswerText } from '../../src/answers/async-reply.ts';
import type { Ledger } from './ledger.ts';
import { hashOf, Random, sleep } from './random.ts';

export type PersonOptions = {
  url: string | string[];
  token: string;
  name: string;
  index: number;
  people: number;
  sessions: string[];
  ledger: Ledger;
  /** This person's own randomness (answers, chatter). */
  seed: number;
  /** The run's seed, shared by everyone, so all agree who takes which question. */
  runSeed: number;
};

/** What the people decide about one question, the same in every person's head (so exactly one takes it). */
export function planFor(questionId: string, people: number, runSeed: number) {
  const h = hashOf(`${runSeed}:${questionId}`);
  const roll = (h % 1000) / 1000;
  const action = roll < 0.62 ? 'answer' : roll < 0.74 ? 'skip' : 'ignore';
  const primary = h % people;
  // Some answers race: a second person answers the same question at the same moment.
  const racer = (h >>> 10) % 100 < 15 && action === 'answer' ? (primary + 1 + ((h >>> 17) % (people - 1))) % people : -1;
  return { action, primary, racer, delayMs: 300 + ((h >>> 3) % 5700) };
}

const retryable = (err: unknown) => err instanceof AskdockError && err.code === 'UNAVAILABLE';
const terminal = (err: unknown) => err instanceof AskdockError && (err.code === 'QUESTION_ALREADY_TERMINAL' || err.code === 'QUESTION_NOT_FOUND');

/**
 * A simulated person on an operator client: answers the questions that fall to them after a pause, sometimes skips,
 * sometimes races another person, and chats now and then. Every accepted action goes into the ledger.
 */
export class Person {
  readonly client: GatewayClient;
  private readonly handled = new Set<string>();
  private readonly random: Random;
  private stopped = false;
  private chatter?: ReturnType<typeof setTimeout>;
  private sentCount = 0;
  readonly work = new Set<Promise<void>>();

  constructor(private readonly o: PersonOptions) {
    this.random = new Random(o.seed);
    this.client = createNodeClient({ url: o.url, token: o.token, client: { name: o.name, mode: 'cli' }, backoff: { initialMs: 250, maxMs: 4000 } });
    this.client.on('question.requested', ({ question }) => this.consider(question));
    // A snapshot after each (re)connect holds every pending question, also those requested while this person was away.
    this.client.onHello((hello) => hello.snapshot.pendingQuestions.forEach((q) => this.consider(q)));
  }

  async start(): Promise<void> {
    await this.client.start();
    this.scheduleChatter();
  }

  /** No new work; what is under way finishes. */
  stopChatting(): void {
    clearTimeout(this.chatter);
  }

  async close(): Promise<void> {
    this.stopped = true;
    this.stopChatting();
    await Promise.allSettled([...this.work]);
    this.client.close();
  }

  private track(p: Promise<void>) {
    this.work.add(p);
    void p.finally(() => this.work.delete(p));
  }

  private consider(q: QuestionRecord) {
    if (this.stopped || q.status !== 'pending' || this.handled.has(q.id)) return;
    this.handled.add(q.id);
    const plan = planFor(q.id, this.o.people, this.o.runSeed);
    const racing = plan.racer === this.o.index;
    if (plan.primary !== this.o.index && !racing) return;
    if (plan.action === 'ignore') return;
    if (racing) this.o.ledger.races++;
    this.track(
      (async () => {
        await sleep(plan.delayMs);
        if (plan.action === 'skip' && q.mode === 'blocking') await this.resolve(q, 'skip');
        // An async skip sends nothing (U8): the question stays pending until it expires or is withdrawn.
        else if (plan.action === 'answer') await (q.mode === 'async' && q.sessionKey ? this.reply(q, q.sessionKey) : this.resolve(q, 'answer'));
      })(),
    );
  }

  private answersFor(q: QuestionRecord): Answers {
    const answers: Answers = {};
    for (const item of q.questions) {
      const labels = item.options.map((o) => o.label);
      if (this.random.chance(0.15)) answers[item.id] = [`free text from ${this.o.name}`];
      else if (item.multiSelect) answers[item.id] = labels.filter(() => this.random.chance(0.5));
      else answers[item.id] = [this.random.pick(labels)];
      if (answers[item.id].length === 0) answers[item.id] = [labels[0]];
    }
    return answers;
  }

  /** Retries what the client gave up on (the gateway was down too long) with the same key, so it is one answer. */
  private async persist<T>(attempt: () => Promise<T>): Promise<T | 'terminal' | 'failed'> {
    for (let i = 0; i < 8; i++) {
      try {
        return await attempt();
      } catch (err) {
        if (terminal(err)) return 'terminal';
        if (!retryable(err) || this.stopped) return 'failed';
        await this.client.ready(60_000).catch(() => undefined);
      }
    }
    return 'failed';
  }

  private async resolve(q: QuestionRecord, kind: 'answer' | 'skip') {
    const key = `${this.o.name}:${q.id}`;
    const answers = kind === 'answer' ? this.answersFor(q) : undefined;
    const result = await this.persist(() =>
      this.client.request('question.resolve', answers ? { id: q.id, answers, resolutionId: key, surface: 'cli' } : { id: q.id, skip: true, resolutionId: key, surface: 'cli' }),
    );
    if (result === 'terminal' || result === 'failed') return;
    this.o.ledger.accepted.push({ questionId: q.id, by: this.o.name, kind, key, ...(result.answers ? { answers: result.answers } : {}) });
  }

  private async reply(q: QuestionRecord, sessionKey: string) {
    const key = `${this.o.name}:${q.id}`;
    const answers = this.answersFor(q);
    const result = await this.persist(() =>
      this.client.request('chat.send', { sessionKey, message: formatAsyncAnswerText(q.questions, answers), idempotencyKey: key, replyTo: { questionId: q.id, answers } }),
    );
    if (result === 'terminal' || result === 'failed') return;
    this.o.ledger.accepted.push({ questionId: q.id, by: this.o.name, kind: 'reply', key, answers, messageId: result.messageId });
  }

  private scheduleChatter() {
    this.chatter = setTimeout(() => {
      if (this.stopped) return;
      const sessionKey = this.random.pick(this.o.sessions);
      const text = `${this.o.name} says hello #${++this.sentCount}`;
      const key = `${this.o.name}:chat:${this.sentCount}`;
      this.track(
        (async () => {
          const result = await this.persist(() => this.client.request('chat.send', { sessionKey, message: text, idempotencyKey: key }));
          if (result !== 'terminal' && result !== 'failed') this.o.ledger.sent.push({ sessionKey, text, messageId: result.messageId });
        })(),
      );
      this.scheduleChatter();
    }, this.random.int(4_000, 15_000));
  }
}
