import { cutDetail } from '../../answers/detail-lines.ts';
import type { ChatMessage, EventPayload, QuestionRecord } from '../../protocol/index.ts';
import { canAnswerQuestion } from '../sessions/visibility.ts';
import type { StoredEvent } from '../store/types.ts';
import type { ChannelBindings } from './bindings.ts';
import type { ChannelCaller } from './caller.ts';
import type { ChannelOptions } from './channel.ts';
import type { ChannelParts } from './parts.ts';
import { chatPost, chatText } from './chat-text.ts';
import { ChannelOutbox } from './outbox.ts';
import { CHANNELS } from './registry.ts';
import { outcomePost, questionPost, withCodeBlock } from './render.ts';
import { splitText } from './split-text.ts';
import { ChannelApiError, type ChannelAdapter, type Post } from './types.ts';

type PostsDeps = {
  parts: ChannelParts;
  adapter: ChannelAdapter;
  bindings: ChannelBindings;
  caller: ChannelCaller;
  opts: ChannelOptions;
  log: (line: string) => void;
};

/**
 * A channel's way to the platform: the bound sessions' questions (posted, then edited to their outcome) and agent
 * replies go out through a retrying outbox.
 */
export class ChannelPosts {
  /** Replaced when the channel is released (another gateway took it over): what waited is that gateway's to post. */
  private outbox: ChannelOutbox;
  private said = 0;

  constructor(private readonly deps: PostsDeps) {
    this.outbox = this.newOutbox();
  }

  private newOutbox(): ChannelOutbox {
    return new ChannelOutbox({ ...this.deps.opts.retry, log: this.deps.log });
  }

  /** Drops what waits to be posted; a fresh outbox takes what comes next. */
  reset(): void {
    this.outbox.stop();
    this.outbox = this.newOutbox();
  }

  stop(): void {
    this.outbox.stop();
  }

  /** Before each post or edit: a gateway whose lease may have run out leaves it to the one that took the channel over. */
  private checkLease(): void {
    if (this.deps.opts.mayPost && !this.deps.opts.mayPost()) throw new ChannelApiError('this gateway may no longer hold the channel lease');
  }

  private log(line: string): void {
    this.deps.log(line);
  }

  async onEvent(ev: StoredEvent): Promise<void> {
    try {
      await this.onEventNow(ev);
    } catch (err) {
      this.log(`an event was not handled: ${(err as Error).message}`);
    }
  }

  private async onEventNow(ev: StoredEvent): Promise<void> {
    if (ev.event === 'question.requested') {
      const { question } = ev.payload as { question: QuestionRecord };
      if (question.sessionKey && (await this.deps.bindings.conversationOf(question.sessionKey)) && await this.mayPost(question)) this.sync(question.id);
    } else if (ev.event === 'question.routed') {
      await this.onRouted(ev.payload as EventPayload<'question.routed'>);
    } else if (ev.event === 'question.resolved') {
      const { id } = ev.payload as { id: string };
      if (await this.deps.bindings.post(id)) this.sync(id);
    } else if (ev.event === 'chat') {
      const { message, state } = ev.payload as { message: ChatMessage; state: string };
      const conversation = await this.deps.bindings.conversationOf(message.sessionKey);
      // H2: the agent's final messages go back to the conversation; A3: never the reply to a privileged question.
      if (conversation && message.role === 'assistant' && state === 'final' && !ev.audience.questionViewersOnly) this.say(conversation, message.text);
    }
  }

  /**
   * E4: "I'm on it" from any surface (the dock, a TUI, a push action, this channel) is said once under the posted
   * prompt's conversation ("Ana is on it"). A route changes for other reasons too (a step, a vote): only the ack's own
   * event (`acked`, one per acknowledgement whichever gateway made it) says it.
   */
  private async onRouted({ id, route, acked }: EventPayload<'question.routed'>): Promise<void> {
    const ack = route.ackedBy;
    if (!acked || !ack) return;
    const posted = await this.deps.bindings.post(id);
    if (!posted?.ref || posted.outcomeShown) return;
    this.say(posted.conversation, `${ack.name ?? ack.identity} is on it`);
  }

  /** A4 for a shared conversation: only what its session's creator may answer, and never a privileged question. */
  async mayPost(q: QuestionRecord): Promise<boolean> {
    if (q.privileged || !q.sessionKey) return false;
    const owner = await this.deps.parts.access.ownerOf(q.sessionKey);
    const identity = owner ? this.deps.caller.identity(owner) : undefined;
    return !!identity && canAnswerQuestion(identity, q, owner);
  }

  private readonly measure = (text: string) => this.deps.adapter.measureText?.(text) ?? text.length;
  private parts(text: string): string[] {
    return splitText(text, this.deps.adapter.textLimit, this.measure);
  }

  /**
   * Posts a prompt longer than one message allows as several, the buttons under the last (whose reference the
   * outcome's edit replaces, H5; returned). A retry after a failure posts only the parts not yet posted; `sent.refs`
   * keeps the earlier parts' references, so a reply to any part answers the question (H4).
   */
  private async postInParts(conversation: string, raw: Post, sent: { parts: number; refs: string[] }): Promise<string> {
    // Cleaned before it is cut, so every part and the detail's fit are measured as the platform gets them.
    const post = chatPost(raw);
    const parts = this.parts(post.text);
    let last: Post = { ...post, text: parts[parts.length - 1] };
    if (post.pre !== undefined) {
      // X2: the detail goes under the last part, cut to what the message has room for; with little room, in a message of its own.
      const { pre: _pre, ...rest } = post;
      const fitted = this.fitPre(post.pre, last.text);
      if (fitted !== null) last = { ...last, pre: fitted };
      else {
        parts.splice(parts.length - 1, 0, '');
        last = { ...rest, text: parts[parts.length - 1] };
      }
    }
    for (; sent.parts < parts.length - 1; sent.parts++) {
      const part = parts[sent.parts];
      sent.refs.push(await this.deps.adapter.post(conversation, part === '' ? { text: '', buttons: [], pre: this.fitPre(post.pre!, '')! } : { text: part, buttons: [] }));
    }
    return this.deps.adapter.post(conversation, last);
  }

  /** A detail cut (whole lines, then `… N more lines`) to fit under `text` in one message; null when too little room is left. */
  private fitPre(pre: string, text: string): string | null {
    const fits = (cut: string) => this.measure(withCodeBlock(text, cut)) <= this.deps.adapter.textLimit;
    if (text !== '' && !fits(pre.slice(0, 400))) return null;
    return cutDetail(pre, Infinity, fits);
  }

  /** Brings the platform in line with the record: posted, and once resolved edited to its outcome (H3, H5). */
  sync(questionId: string): void {
    const sent = { parts: 0, refs: [] as string[] };
    this.outbox.enqueue(`question ${questionId}`, async () => {
      const q = await this.deps.parts.store.getQuestion(questionId);
      if (!q?.sessionKey) return;
      const posted = await this.deps.bindings.post(q.id);
      const conversation = posted?.conversation ?? (await this.deps.bindings.conversationOf(q.sessionKey));
      if (!conversation) return;
      this.checkLease();
      const terminal = q.status !== 'pending';
      if (!posted?.ref) {
        const ref = await this.postInParts(conversation, terminal ? outcomePost(q) : questionPost(q, CHANNELS[this.deps.adapter.name].capabilities, this.deps.opts.pageUrl?.(q.id), this.deps.opts.publicUrl), sent);
        await this.deps.bindings.savePost(q.id, { conversation, ref, outcomeShown: terminal }, sent.refs);
      } else if (terminal && !posted.outcomeShown) {
        const outcome = outcomePost(q, this.deps.adapter.textLimit, (text) => this.measure(chatText(text)));
        await this.deps.adapter.edit(conversation, posted.ref, chatPost(outcome));
        await this.deps.bindings.savePost(q.id, { ...posted, outcomeShown: true });
      }
    });
  }

  /**
   * H2: a text longer than one message allows goes as several, in order, each its own job (a retry repeats none).
   * `posted` hears the last part's reference.
   */
  say(conversation: string, text: string, forceReply = false, posted?: (ref: string) => Promise<void>): void {
    const parts = this.parts(chatText(text));
    parts.forEach((part, i) =>
      this.outbox.enqueue(`message ${++this.said} to ${conversation}`, async () => {
        this.checkLease();
        const last = i === parts.length - 1;
        const ref = await this.deps.adapter.post(conversation, { text: part, buttons: [], ...(forceReply && last ? { forceReply: true } : {}) });
        // Posted is posted: a failure to note it is logged, never a second post.
        if (last && posted) await posted(ref).catch((err: unknown) => this.log(`a posted message was not noted: ${(err as Error).message}`));
      }),
    );
  }

  /** After a restart: every pending question of a bound session is posted, every resolved one shows its outcome. */
  async recover(): Promise<void> {
    for (const session of await this.deps.parts.store.listSessions()) {
      if (!(await this.deps.bindings.conversationOf(session.key))) continue;
      for (const q of await this.deps.parts.store.listQuestions({ sessionKey: session.key })) {
        const posted = await this.deps.bindings.post(q.id);
        if (q.status === 'pending' ? !posted?.ref && await this.mayPost(q) : posted?.ref && !posted.outcomeShown) this.sync(q.id);
      }
    }
  }
}
