import { createHash } from 'node:crypto';
import { formatAsyncAnswerText } from '../../answers/async-reply.ts';
import { credentialWarning, detectCredential } from '../../answers/credentials.ts';
import { describePlainTextProblems, readPlainTextReply } from '../../answers/plain-text.ts';
import { replyHint } from '../../answers/readable-prompt.ts';
import { AskdockError, type AnswerProblem, type QuestionRecord } from '../../protocol/index.ts';
import { canAnswerQuestion } from '../sessions/visibility.ts';
import { ChannelBindings } from './bindings.ts';
import type { ChannelCaller } from './caller.ts';
import { ChannelPosts } from './channel-posts.ts';
import type { ChannelParts } from './parts.ts';
import { answeredNotice, tellHeld } from './press-notice.ts';
import { messageRefusal, pressRefusal, replyRefusal } from './refusals.ts';
import { replyTarget } from './reply-target.ts';
import { ACK_REPLY, hasButtons, otherPrompt, parseAction, RUNLESS_NOTICE } from './render.ts';
import { type ChannelAdapter, type ChannelSink, type Inbound, type Press, type PressReply } from './types.ts';

export type ChannelOptions = {
  users: Record<string, string>;
  log: (line: string) => void;
  retry?: { baseDelayMs?: number; maxDelayMs?: number };
  /** Several gateways: false once this gateway may have lost the channel's lease; nothing is posted then (channels.ts). */
  mayPost?: () => boolean;
  /** X2: the address of a question's own page (`/q/<id>`), posted under a detail cut to fit. */
  pageUrl?: (questionId: string) => string;
  /** The gateway's public address, for each question's `Open in askdock` link. */
  publicUrl?: string;
};

const withoutNul = (text: string) => text.replaceAll('\0', '');

/**
 * Q5 for a press: the same person's press on the same message and choice gives the same id (a repeat answers as the
 * first did), any other press another one. Hashed, not cut: ids cut to 128 characters from long identity ids collide.
 */
export function pressResolutionId(channel: string, identityId: string, ref: string, choice: string): string {
  const digest = createHash('sha256').update(JSON.stringify([identityId, ref, choice])).digest('base64url');
  return `${channel}-press-${digest}`;
}

/**
 * One configured platform inside the gateway (H1-H5): its conversations are sessions, its users' messages and
 * presses go through the dispatch as their mapped identities, and the bound sessions' questions and agent
 * replies go out through a retrying outbox (channel-posts.ts).
 */
export class Channel implements ChannelSink {
  readonly bindings: ChannelBindings;
  private readonly posts: ChannelPosts;
  private readonly surface: string;
  /** Inbound work runs one at a time, so a conversation's first two messages make one session. */
  private inbound: Promise<unknown> = Promise.resolve();
  private unlisten: (() => void) | null = null;
  /** W3: a reply that looks like a credential waits here until its sender confirms with `send`. */
  private readonly held = new Map<string, Inbound>();

  constructor(
    private readonly parts: ChannelParts,
    readonly adapter: ChannelAdapter,
    private readonly caller: ChannelCaller,
    private readonly opts: ChannelOptions,
  ) {
    this.surface = `channel:${adapter.name}`;
    this.bindings = new ChannelBindings(parts, adapter.name);
    this.posts = new ChannelPosts({ parts, adapter, bindings: this.bindings, caller, opts, log: (line) => this.log(line) });
  }

  private log(line: string): void {
    this.opts.log(`askdock channel ${this.adapter.name}: ${line}`);
  }

  /**
   * Listens before connecting, so nothing asked meanwhile is missed; then queues what a restart (or the gateway that
   * ran the channel before) left unposted. It hears every gateway's events: with several on one database, the one
   * running the channel posts what was asked through any of them.
   */
  async attach(): Promise<void> {
    if (this.unlisten) return;
    this.unlisten = this.parts.hub.listenAll((ev) => void this.posts.onEvent(ev));
    await this.posts.recover();
  }

  /** Webhook deliveries only (several gateways: this one does not run the channel, but the load balancer may pick it). */
  acceptWebhooks(): void {
    this.adapter.acceptWebhooks?.(this);
  }

  /** Another gateway runs the channel now: stop reading and posting, keep answering webhooks. */
  async release(): Promise<void> {
    this.unlisten?.();
    this.unlisten = null;
    this.posts.reset();
    await this.adapter.stop();
    this.acceptWebhooks();
  }

  /** Connects the platform; the outbox keeps retrying its posts meanwhile. */
  connect(): Promise<void> {
    return this.adapter.start(this);
  }

  async stop(): Promise<void> {
    this.unlisten?.();
    this.unlisten = null;
    this.posts.stop();
    await this.adapter.stop();
  }

  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.inbound.then(fn, fn);
    this.inbound = next.catch(() => undefined);
    return next;
  }

  private identityOf(user: string, what: string): string | undefined {
    const id = Object.hasOwn(this.opts.users, user) ? this.opts.users[user] : undefined;
    if (!id) this.log(`ignored a ${what} from unmapped user ${user}`);
    return id;
  }

  // ---- from the platform

  message(raw: Inbound): Promise<void> {
    // No store keeps U+0000 (P3), and no person types it: a platform that delivers one gets it dropped, not the message.
    const m = { ...raw, text: withoutNul(raw.text), ...(raw.conversationTitle !== undefined ? { conversationTitle: withoutNul(raw.conversationTitle) } : {}) };
    return this.serial(async () => {
      const identityId = this.identityOf(m.user, 'message');
      if (!identityId) return;
      const heldKey = `${m.conversation}\n${m.user}`;
      const held = this.held.get(heldKey);
      this.held.delete(heldKey);
      const confirmed = held && m.text.trim().toLowerCase() === 'send';
      // W3: any other answer to the credential warning drops the held text, and is not sent itself either.
      if (held && !confirmed) return this.say(m.conversation, 'Dropped: nothing was sent.');
      const sent = confirmed ? held : m;
      try {
        await this.send(identityId, sent, !!confirmed, heldKey);
      } catch (err) {
        this.log(`a message was not sent: ${(err as Error).message}`);
        // H2: the person would otherwise think it was sent; told why in the channel's words, not the gateway's.
        this.say(m.conversation, messageRefusal(err, sent.text));
      }
    });
  }

  private async send(identityId: string, m: Inbound, confirmed: boolean, heldKey: string): Promise<void> {
    const digest = createHash('sha256').update(`${m.conversation}\n${m.messageId}`).digest('base64url').slice(0, 32);
    const idempotencyKey = `${this.adapter.name}-${digest}`;
    const sessionKey = await this.sessionFor(m.conversation, identityId, idempotencyKey, m.conversationTitle);
    const target = await replyTarget(this.parts, this.bindings, this.caller.identity(identityId), { sessionKey, conversation: m.conversation, ...(m.replyTo !== undefined ? { replyTo: m.replyTo } : {}) });
    const credential = target && !confirmed ? detectCredential(m.text) : null;
    if (credential) {
      this.held.set(heldKey, m);
      this.say(m.conversation, `${credentialWarning(credential)} Reply send to send it; anything else drops it.`);
      return;
    }
    if (!target) {
      await this.caller.change(identityId, 'chat.send', { sessionKey, message: m.text, idempotencyKey });
      return;
    }
    // E4: `ack` to a routed question takes it ("I'm on it") and answers nothing.
    if (target.route && m.text.trim().toLowerCase() === ACK_REPLY) {
      const taken = await this.acknowledge(identityId, target);
      if (taken.refused) this.say(m.conversation, `Not taken: ${taken.notice}`);
      return;
    }
    try {
      await this.reply(identityId, sessionKey, target, m.text, idempotencyKey);
      await tellHeld(this.caller, identityId, target, (text) => this.say(m.conversation, text));
    } catch (err) {
      // H4: resolved in the meantime (elsewhere): the reply is an ordinary message after all.
      if (err instanceof AskdockError && err.code === 'QUESTION_ALREADY_TERMINAL') {
        await this.caller.change(identityId, 'chat.send', { sessionKey, message: m.text, idempotencyKey });
        return;
      }
      if (err instanceof AskdockError && err.code === 'QUESTION_INVALID_ANSWER') {
        // PT5: a reply that fits no rule sends nothing and says why.
        const why = describePlainTextProblems(target.questions, (err.details ?? []) as AnswerProblem[]);
        this.say(m.conversation, `Not sent: ${why}. ${replyHint(target.questions)}`);
        return;
      }
      // Any other refusal is told too (a choice the replier may not make, G5), without the gateway's own words.
      this.log(`a message was not sent: ${(err as Error).message}`);
      this.say(m.conversation, replyRefusal(err, target, m.text, this.caller.identity(identityId)?.scopes));
    }
  }

  /**
   * H4: a blocking question's reply is read by the gateway (PT5); an async one's by the same plain-text rules
   * here, then sent as its ordinary answer message (Q9) or, for `skip`, as a skip.
   */
  private async reply(identityId: string, sessionKey: string, q: QuestionRecord, text: string, idempotencyKey: string): Promise<void> {
    const replyTo = { questionId: q.id };
    if (q.mode === 'blocking') {
      await this.caller.change(identityId, 'chat.send', { sessionKey, message: text, idempotencyKey, replyTo });
      return;
    }
    const reading = readPlainTextReply(q.questions, text);
    if (reading.outcome === 'invalid') throw new AskdockError('QUESTION_INVALID_ANSWER', 'reply fits no rule', { details: reading.problems });
    if (reading.outcome === 'skipped') {
      await this.caller.change(identityId, 'question.resolve', { id: q.id, skip: true, surface: this.surface, resolutionId: idempotencyKey });
      return;
    }
    await this.caller.change(identityId, 'chat.send', { sessionKey, message: text, idempotencyKey, replyTo: { ...replyTo, answers: reading.answers } });
  }

  /** `idempotencyKey`: the message's own, so a retry of the create (transient-retry.ts) finds the session it made. */
  private async sessionFor(conversation: string, identityId: string, idempotencyKey: string, title?: string): Promise<string> {
    const bound = await this.bindings.sessionOf(conversation);
    if (bound && await this.parts.store.getSession(bound)) return bound;
    const { session } = await this.caller.change(identityId, 'sessions.create', { idempotencyKey, ...(title ? { title } : {}) });
    await this.bindings.bind(conversation, session.key);
    this.log(`conversation ${conversation} is session ${session.key}`);
    return session.key;
  }

  press(p: Press): Promise<PressReply> {
    return this.serial(async () => {
      const identityId = this.identityOf(p.user, 'button press');
      if (!identityId) return { ignored: true };
      const parsed = parseAction(p.action);
      const id = parsed ? await this.bindings.questionOfToken(parsed.token) : undefined;
      const q = id ? (await this.parts.store.getQuestion(id)) : undefined;
      if (!parsed || !q || (await this.bindings.post(q.id))?.conversation !== p.conversation) return { notice: 'This question is not here any more.', refused: true };
      if (!hasButtons(q)) return { notice: 'Answer this question in the Control UI.', refused: true };
      // H4: a question without a run is posted with its buttons, but only the Control UI or the TUI answers it.
      if (q.runId === undefined) return { notice: RUNLESS_NOTICE, refused: true };
      try {
        return await this.answerByPress(identityId, q, parsed.choice, p);
      } catch (err) {
        return { notice: await pressRefusal(err, this.log.bind(this), { q, choice: parsed.choice, scopes: this.caller.identity(identityId)?.scopes, mayAnswer: () => this.mayAnswer(identityId, q) }), refused: true };
      }
    });
  }

  /** E4: "I'm on it" from this channel; the conversation hears who took it ("Ana is on it") as from any surface (channel-posts.ts). */
  private async acknowledge(identityId: string, q: QuestionRecord): Promise<PressReply> {
    try {
      await this.caller.change(identityId, 'question.ack', { id: q.id });
      return { notice: "You're on it" };
    } catch (err) {
      const notice = err instanceof AskdockError && err.code === 'FORBIDDEN' ? 'This question waits for someone else.' : await pressRefusal(err, this.log.bind(this));
      return { notice, refused: true };
    }
  }

  private async answerByPress(identityId: string, q: QuestionRecord, choice: string, p: Press): Promise<PressReply> {
    if (choice === 'ack') return this.acknowledge(identityId, q);
    // A repeat of this person's own press answers as the first did (Q5); another person's press finds it resolved.
    const resolution = { surface: this.surface, resolutionId: pressResolutionId(this.adapter.name, identityId, p.ref, choice) };
    if (choice === 'other') {
      // `Other…` answers nothing: it only asks for the reply, after the same A3 check an answer would get.
      const { question } = await this.caller.call(identityId, 'question.get', { id: q.id });
      await this.checkMayAnswer(identityId, q);
      if (question.status !== 'pending') return { notice: 'This question was already resolved.', refused: true };
      // H3/H4: the reply to this Force Reply answers this question, whatever else is pending in the conversation.
      this.posts.say(p.conversation, otherPrompt(q), true, (ref) => this.bindings.saveRef(p.conversation, ref, q.id));
      return {};
    }
    if (choice === 'skip') {
      await this.caller.change(identityId, 'question.resolve', { id: q.id, skip: true, ...resolution });
      return { notice: 'Skipped' };
    }
    const item = q.questions[0];
    const option = item.options[Number(choice)];
    if (!option) return { notice: 'That choice is not in this question.', refused: true };
    const answers = { [item.id]: [option.label] };
    if (q.mode === 'async') {
      // Q9: an async answer is an ordinary chat message that names its question.
      const message = formatAsyncAnswerText(q.questions, answers);
      await this.caller.change(identityId, 'chat.send', { sessionKey: q.sessionKey ?? '', message, idempotencyKey: resolution.resolutionId, replyTo: { questionId: q.id, answers } });
      return answeredNotice(this.caller, identityId, q, option.label);
    }
    const result = await this.caller.change(identityId, 'question.resolve', { id: q.id, answers, ...resolution });
    return answeredNotice(this.caller, identityId, q, option.label, result);
  }

  private async mayAnswer(identityId: string, q: QuestionRecord): Promise<boolean> {
    const identity = this.caller.identity(identityId);
    return !!identity && canAnswerQuestion(identity, q, q.sessionKey ? (await this.parts.access.ownerOf(q.sessionKey)) : undefined);
  }

  private async checkMayAnswer(identityId: string, q: QuestionRecord): Promise<void> {
    if (!(await this.mayAnswer(identityId, q))) throw new AskdockError('FORBIDDEN', `identity "${identityId}" may not answer question "${q.id}"`);
  }

  private say(conversation: string, text: string, forceReply = false): void {
    this.posts.say(conversation, text, forceReply);
  }
}
