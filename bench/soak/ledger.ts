import type { AskUserResult } from '../../src/agent/ask-user.ts';
import type { Answers, ChatMessage, QuestionRecord } from '../../src/protocol/index.ts';

/** One question an agent asked and the gateway acknowledged (a blocking askUser call counts as asked). */
export type Ask = {
  id: string;
  agent: string;
  mode: 'blocking' | 'async';
  sessionKey: string;
  /** The agent withdrew it on purpose (AbortSignal or cancel), so any outcome is its own doing. */
  withdrawn: boolean;
  /** Every result askUser gave (blocking). */
  results: AskUserResult[];
  settled: boolean;
  error?: string;
  /** Reply message ids the agent received for it (async), one per delivery. */
  replies: string[];
};

/** One person's answer, skip or async reply that the gateway accepted. */
export type Accepted = { questionId: string; by: string; kind: 'answer' | 'skip' | 'reply'; key: string; answers?: Answers; messageId?: string };

/** A chat message a person sent and the gateway acknowledged. */
export type Sent = { sessionKey: string; text: string; messageId: string };

export type Tally = {
  asked: number;
  answered: number;
  expired: number;
  skipped: number;
  cancelled: number;
  races: number;
  messages: number;
  duplicates: number;
  lost: number;
  problems: string[];
};

const sameAnswers = (a: Answers | undefined, b: Answers | undefined) =>
  JSON.stringify(Object.entries(a ?? {}).sort()) === JSON.stringify(Object.entries(b ?? {}).sort());

/** Everything acknowledged during the soak, checked at the end against what the gateway holds. */
export class Ledger {
  readonly asks = new Map<string, Ask>();
  readonly accepted: Accepted[] = [];
  readonly sent: Sent[] = [];
  races = 0;

  ask(entry: Omit<Ask, 'withdrawn' | 'results' | 'settled' | 'replies'>): Ask {
    const ask: Ask = { ...entry, withdrawn: false, results: [], settled: false, replies: [] };
    this.asks.set(ask.id, ask);
    return ask;
  }

  verify(questions: QuestionRecord[], histories: Map<string, ChatMessage[]>): Tally {
    const t: Tally = { asked: this.asks.size, answered: 0, expired: 0, skipped: 0, cancelled: 0, races: this.races, messages: 0, duplicates: 0, lost: 0, problems: [] };
    const lost = (why: string) => {
      t.lost++;
      t.problems.push(`lost: ${why}`);
    };
    const duplicate = (why: string, n = 1) => {
      t.duplicates += n;
      t.problems.push(`duplicate: ${why}`);
    };
    const records = new Map(questions.map((q) => [q.id, q]));
    const messages = [...histories.values()].flat();
    t.messages = this.sent.length;

    for (const ask of this.asks.values()) {
      const record = records.get(ask.id);
      if (!record) {
        lost(`${ask.id} was acknowledged but the gateway does not have it`);
        continue;
      }
      if (record.status === 'pending') lost(`${ask.id} is still pending after the drain`);
      else t[record.status]++;
      if (ask.mode === 'blocking') this.checkBlocking(ask, record, lost, duplicate);
      else this.checkAsync(ask, record, messages, lost, duplicate);
    }
    for (const q of questions) if (!this.asks.has(q.id)) duplicate(`${q.id} exists at the gateway but no agent asked it`);
    this.checkAccepted(records, lost, duplicate);
    this.checkSent(messages, lost, duplicate);
    return t;
  }

  private checkBlocking(ask: Ask, record: QuestionRecord, lost: (w: string) => void, duplicate: (w: string, n?: number) => void) {
    if (ask.results.length > 1) duplicate(`${ask.id}: askUser gave ${ask.results.length} results`, ask.results.length - 1);
    if (ask.withdrawn) return;
    if (ask.error) return lost(`${ask.id}: askUser failed: ${ask.error}`);
    if (!ask.settled) return lost(`${ask.id}: askUser never returned`);
    const result = ask.results[0];
    const matches =
      result.status === 'answered'
        ? record.status === 'answered' && sameAnswers(result.answers.answers, record.answers)
        : record.status === result.reason;
    if (!matches) lost(`${ask.id}: askUser said ${JSON.stringify(result)} but the gateway says ${record.status} ${JSON.stringify(record.answers ?? {})}`);
  }

  private checkAsync(ask: Ask, record: QuestionRecord, messages: ChatMessage[], lost: (w: string) => void, duplicate: (w: string, n?: number) => void) {
    const saved = messages.filter((m) => m.replyTo?.questionId === ask.id);
    if (saved.length > 1) duplicate(`${ask.id}: ${saved.length} saved replies`, saved.length - 1);
    const delivered = new Set(ask.replies);
    if (ask.replies.length > delivered.size) duplicate(`${ask.id}: the agent got one reply ${ask.replies.length} times`, ask.replies.length - delivered.size);
    if (delivered.size > 1) duplicate(`${ask.id}: the agent got ${delivered.size} different replies`, delivered.size - 1);
    if (record.status !== 'answered') return;
    if (!saved.some((m) => m.id === record.replyMessageId)) lost(`${ask.id}: answered by ${record.replyMessageId} but that reply is not in the history`);
    else if (!delivered.has(record.replyMessageId!)) lost(`${ask.id}: the agent never got its reply ${record.replyMessageId}`);
  }

  private checkAccepted(records: Map<string, QuestionRecord>, lost: (w: string) => void, duplicate: (w: string, n?: number) => void) {
    const byQuestion = new Map<string, Accepted[]>();
    for (const a of this.accepted) byQuestion.set(a.questionId, [...(byQuestion.get(a.questionId) ?? []), a]);
    for (const [id, list] of byQuestion) {
      // A re-send with the same key is the same answer; two keys both accepted is a question answered twice.
      const keys = new Set(list.map((a) => a.key));
      if (keys.size > 1) duplicate(`${id}: accepted from ${keys.size} people (${[...keys].join(', ')})`, keys.size - 1);
      const record = records.get(id);
      for (const a of list) {
        const kept =
          a.kind === 'skip'
            ? record?.status === 'skipped'
            : a.kind === 'answer'
              ? record?.status === 'answered' && sameAnswers(a.answers, record.answers)
              : record?.status === 'answered' && record.replyMessageId === a.messageId;
        if (!kept) lost(`${id}: ${a.by}'s accepted ${a.kind} is not what the gateway kept (${record?.status})`);
      }
    }
  }

  private checkSent(messages: ChatMessage[], lost: (w: string) => void, duplicate: (w: string, n?: number) => void) {
    for (const s of this.sent) {
      const byId = messages.filter((m) => m.id === s.messageId).length;
      const byText = messages.filter((m) => m.sessionKey === s.sessionKey && m.text === s.text).length;
      if (byId === 0) lost(`message ${s.messageId} ("${s.text}") was acknowledged but is not in the history`);
      if (byText > 1) duplicate(`message "${s.text}" is in the history ${byText} times`, byText - 1);
    }
  }
}
