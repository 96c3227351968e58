import type { AskUserInput } from '../../src/agent/ask-user.ts';
import { connect, type Agent } from '../../src/agent/sdk.ts';
import { AskdockError, type QuestionItemInput } from '../../src/protocol/index.ts';
import type { Ask, Ledger } from './ledger.ts';
import { Random, sleep } from './random.ts';

/** short: blocking with 30 s timeouts; withdraws: blocking, aborted after a while; async: async questions, some expiring. */
export type AgentKind = 'short' | 'withdraws' | 'async';

export type AgentOptions = { url: string | string[]; token: string; name: string; kind: AgentKind; sessions: string[]; ledger: Ledger; seed: number };

const OUTSTANDING_ASYNC = 3;

function itemsFor(id: string, random: Random): QuestionItemInput[] {
  const pick: QuestionItemInput = {
    id: 'pick',
    header: 'Pick',
    question: `Which way for ${id}?`,
    options: [{ label: 'North' }, { label: 'South' }, { label: 'East' }],
    ...(random.chance(0.3) ? { multiSelect: true } : {}),
  };
  const also: QuestionItemInput = { id: 'also', header: 'Also', question: `Anything else for ${id}?`, options: [{ label: 'Yes' }, { label: 'No' }] };
  return random.chance(0.25) ? [pick, also] : [pick];
}

const code = (err: unknown) => (err instanceof AskdockError ? err.code : undefined);

/** One SDK agent asking in its sessions until told to stop; every acknowledged question goes into the ledger. */
export class AgentSim {
  agent!: Agent;
  private readonly random: Random;
  private asking = true;
  private readonly lanes: Promise<void>[] = [];
  private readonly aborts = new Map<string, AbortController>();
  /** Async questions still open as far as this agent knows, with when they were asked. */
  private readonly open = new Map<string, number>();
  private seq = 0;

  constructor(private readonly o: AgentOptions) {
    this.random = new Random(o.seed);
  }

  async start(): Promise<void> {
    this.agent = await connect({ url: this.o.url, token: this.o.token, name: this.o.name, backoff: { initialMs: 250, maxMs: 4000 }, connectTimeoutMs: 30_000 });
    this.agent.client.on('question.resolved', (e) => this.open.delete(e.id));
    for (const sessionKey of this.o.sessions) {
      if (this.o.kind === 'async')
        await this.agent.onUserMessage((m) => m.replyTo && this.o.ledger.asks.get(m.replyTo.questionId)?.replies.push(m.id), { sessionKey });
      this.lanes.push(this.o.kind === 'async' ? this.asyncLane(sessionKey) : this.blockingLane(sessionKey));
    }
  }

  /** Stops asking, lets blocking questions settle for up to `settleMs`, then withdraws whatever is still open. */
  async drain(settleMs: number): Promise<void> {
    this.asking = false;
    const deadline = sleep(settleMs).then(() => {
      for (const [id, abort] of this.aborts) {
        this.withdrawn(id);
        abort.abort();
      }
    });
    for (const id of this.open.keys()) await this.withdraw(id);
    await Promise.race([Promise.all(this.lanes), deadline]);
    await Promise.all(this.lanes);
  }

  close(): void {
    this.agent?.close();
  }

  private nextId(): string {
    return `${this.o.name}-${++this.seq}`;
  }

  private withdrawn(id: string) {
    const ask = this.o.ledger.asks.get(id);
    if (ask) ask.withdrawn = true;
  }

  private async withdraw(id: string) {
    this.withdrawn(id);
    for (let i = 0; i < 5 && this.open.has(id); i++) {
      if (await this.agent.cancelQuestion(id, 'the agent moved on', 10_000)) break;
      await this.agent.client.ready(30_000).catch(() => undefined);
    }
    this.open.delete(id);
  }

  private async blockingLane(sessionKey: string) {
    while (this.asking) {
      const id = this.nextId();
      const ask: Ask = this.o.ledger.ask({ id, agent: this.o.name, mode: 'blocking', sessionKey });
      const abort = new AbortController();
      this.aborts.set(id, abort);
      const input: AskUserInput = { questions: itemsFor(id, this.random), ...(this.o.kind === 'short' ? { timeoutSeconds: 30 } : {}) };
      const withdrawAfter =
        this.o.kind === 'withdraws'
          ? setTimeout(() => {
              ask.withdrawn = true;
              abort.abort();
            }, this.random.int(10_000, 40_000))
          : undefined;
      try {
        ask.results.push(await this.agent.askUser(input, { sessionKey, id, signal: abort.signal }));
      } catch (err) {
        // Q11: the previous question's cancel has not landed yet, so this ask was refused and never existed.
        if (code(err) === 'QUESTION_PENDING') this.o.ledger.asks.delete(id);
        else if (!ask.withdrawn) ask.error = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
        if (code(err) === 'QUESTION_PENDING') await sleep(1000);
      } finally {
        ask.settled = true;
        clearTimeout(withdrawAfter);
        this.aborts.delete(id);
      }
      await sleep(this.random.int(200, 2000));
    }
  }

  private async asyncLane(sessionKey: string) {
    while (this.asking) {
      const now = Date.now();
      for (const [id, askedAt] of this.open) if (now - askedAt > 40_000) await this.withdraw(id);
      if (this.open.size >= OUTSTANDING_ASYNC * this.o.sessions.length) {
        await sleep(500);
        continue;
      }
      const id = this.nextId();
      const ask = this.o.ledger.ask({ id, agent: this.o.name, mode: 'async', sessionKey });
      const input: AskUserInput = { questions: itemsFor(id, this.random), ...(this.random.chance(0.5) ? { timeoutSeconds: 30 } : {}) };
      try {
        await this.agent.askUserAsync(input, { sessionKey, id });
        this.open.set(id, Date.now());
      } catch {
        // Not acknowledged: it counts only if the gateway has it after all.
        const exists = await this.agent.client.request('question.get', { id }).then(() => true, () => false);
        if (exists) this.open.set(id, Date.now());
        else this.o.ledger.asks.delete(id);
      }
      ask.settled = true;
      await sleep(this.random.int(300, 3000));
    }
  }
}
