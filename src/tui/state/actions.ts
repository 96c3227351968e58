import { randomUUID } from 'node:crypto';
import { formatAsyncAnswerText } from '../../answers/async-reply.ts';
import { credentialWarning, detectCredential, detectCredentialIn, messageAsSecretOffer, messageCredentialWarning } from '../../answers/credentials.ts';
import { describePlainTextProblems, readPlainTextReply } from '../../answers/plain-text.ts';
import type { GatewayClient } from '../../client/client.ts';
import type { Answers, QuestionRecord, QuorumState } from '../../protocol/index.ts';
import { emptyDraft, type PromptDraft } from '../prompt/prompt-model.ts';
import { loadSession, update, withQuestion, withSession } from './sync.ts';
import { currentRequest, mayAnswerHere, pendingRequests, pendingSecret, type Flash, type TuiStore } from './tui-store.ts';
import { errorText, flash } from './flash.ts';
import { openSecret, provideSecret, skipSecret } from './secret-actions.ts';
import { grantScopeOf, recordWithChoosableOffers } from '../../answers/kinds/approval-offers.ts';
import { APPROVAL_ALLOW } from '../../answers/kinds/approval.ts';
import { draftFromAnswers } from '../../answers/collect.ts';
import { handedOffDrafts, heldVoteText } from '../../lib/route-text.ts';

/** An approval's answer that allows: Allow or an "Always allow…" offer, never Deny or the person's own words. */
const allows = (answers: Answers) => Object.values(answers).every((values) => values.length > 0 && values.every((v) => v === APPROVAL_ALLOW || grantScopeOf(v) !== null));

/** The values of a reading that are no option label: what the person wrote in their own words. */
const freeText = (q: QuestionRecord, answers: Answers) =>
  q.questions.flatMap((item) => (answers[item.id] ?? []).filter((v) => !item.options.some((o) => o.label === v)));

const key = () => `tui-${randomUUID()}`;

/** V1: what a message typed with no session open is told (it stays in the composer), by where the first open stands. */
const NO_SESSION = {
  'not begun': 'Still connecting to the gateway: your message stays here; press Enter again once connected',
  opening: 'Opening a session… send it again in a moment',
  over: 'No session is open: /new starts one, /sessions lists them',
} as const;

/** What the screens do: messages, session commands, answers. Every answer carries surface `tui` (V2). */
export class TuiActions {
  constructor(
    private readonly client: GatewayClient,
    private readonly store: TuiStore,
    private readonly quit: () => void,
  ) {}

  /**
   * V1: where the first session open stands: not begun (it begins after the first hello), under way (a message typed
   * meanwhile waits in the composer), or over (with no session, it failed).
   */
  private firstOpen: 'not begun' | 'opening' | 'over' = 'not begun';

  flash(text: string, tone: Flash['tone'] = 'info'): void {
    flash(this.store, text, tone);
  }

  /** V1: the given session, else the newest one this identity may see, else a new one. */
  async openInitial(sessionKey?: string): Promise<void> {
    this.firstOpen = 'opening';
    try {
      if (sessionKey) return await this.openSession(sessionKey);
      const { sessions } = await this.client.request('sessions.list', {});
      const newest = [...sessions].sort((a, b) => (b.lastMessageAtMs ?? b.createdAtMs) - (a.lastMessageAtMs ?? a.createdAtMs))[0];
      if (newest) return await this.openSession(newest.key);
      await this.newSession();
    } finally {
      this.firstOpen = 'over';
    }
  }

  async openSession(sessionKey: string): Promise<void> {
    try {
      await loadSession(this.client, this.store, sessionKey);
      update(this.store, () => ({ sessionKey, view: 'composer', requestId: null, dismissed: {}, flash: null }));
    } catch (err) {
      this.flash(`Could not open session ${sessionKey}: ${errorText(err)}`, 'error');
    }
  }

  /** After a reconnect: the open session again, from scratch, with its drafts untouched (V6). */
  async reload(): Promise<void> {
    const { sessionKey } = this.store.getState();
    if (sessionKey) await loadSession(this.client, this.store, sessionKey).catch((err) => this.flash(errorText(err), 'error'));
  }

  async newSession(): Promise<void> {
    const { session } = await this.client.request('sessions.create', {});
    update(this.store, (s) => withSession(s, session));
    await this.openSession(session.key);
  }

  /** The composer's Enter: a command, a plain reply to the pending question (V4, PT1-PT5), or a message. */
  async submitComposer(text: string, confirmed = false): Promise<void> {
    const trimmed = text.trim();
    if (!trimmed) return;
    if (trimmed.startsWith('/')) return this.command(trimmed);
    const s = this.store.getState();
    if (!s.sessionKey) return this.flash(NO_SESSION[this.firstOpen], 'warn');
    // G5: a reply's option numbers count the approval offers this identity is shown, as the prompt's rows do.
    const first = pendingRequests(s)[0];
    const pending = currentRequest(s)?.record ?? (first && recordWithChoosableOffers(first, s.scopes));
    // E3, H4: a question this person may not answer takes no reply from them: their line is an ordinary message, and they are told so.
    const readOnly = pending !== undefined && !mayAnswerHere(s, pending);
    if (pending && !readOnly) return this.plainReply(pending, text);
    const match = detectCredential(text);
    // W3: a message that looks like a credential waits for the person's yes, as Other text does.
    if (match && !confirmed) {
      const secret = pendingSecret(s);
      const send = () => void this.submitComposer(text, true);
      // W4: with a secret request pending, the text may go as that secret instead: stored encrypted, never a message.
      if (secret) return update(this.store, () => ({ confirm: { warning: messageAsSecretOffer(match, secret.name), send, asSecret: { name: secret.name, send: () => void this.composerAsSecret(secret.id, text) } } }));
      return update(this.store, () => ({ confirm: { warning: messageCredentialWarning(match), send } }));
    }
    update(this.store, () => ({ composerText: '', flash: null, confirm: null }));
    await this.client
      .request('chat.send', { sessionKey: s.sessionKey, message: text, idempotencyKey: key() })
      .then(() => readOnly && this.flash('You may not answer this question; your message was sent to the session', 'warn'))
      .catch((err) => this.flash(`Not sent: ${errorText(err)}`, 'error'));
  }

  /** W4: the composer's text as the pending secret; it leaves the composer only once stored (a refusal gives it back to edit). */
  private async composerAsSecret(id: string, text: string): Promise<void> {
    update(this.store, () => ({ confirm: null }));
    if (await this.provideSecret(id, text)) update(this.store, (s) => (s.composerText === text ? { composerText: '' } : {}));
  }

  /** W4: a value as the pending secret; whether it was stored. */
  provideSecret(id: string, value: string): Promise<boolean> {
    return provideSecret(this.client, this.store, id, value);
  }

  /** K1: the masked field's Skip declines the secret request. */
  skipSecret(id: string): Promise<void> {
    return skipSecret(this.client, this.store, id);
  }

  private async command(line: string): Promise<void> {
    const [name] = line.split(/\s+/);
    update(this.store, () => ({ composerText: '', flash: null }));
    switch (name) {
      case '/quit':
        return this.quit();
      case '/new':
        return this.newSession().catch((err) => this.flash(errorText(err), 'error'));
      case '/sessions':
        return update(this.store, () => ({ view: 'sessions' }));
      case '/question':
        return this.reopenPrompt();
      case '/secret':
        return openSecret(this.store);
      default:
        this.flash(`Unknown command ${name}: try /new, /sessions, /question, /secret or /quit`, 'error');
    }
  }

  /** V4: `/question` reopens the prompt, draft and all. */
  reopenPrompt(): void {
    const s = this.store.getState();
    const pending = pendingRequests(s);
    if (!pending.length) return this.flash('No question is pending in this session');
    const requestId = pending.some((q) => q.id === s.requestId) ? s.requestId : pending[0].id;
    update(this.store, () => ({ view: 'prompt', requestId, dismissed: {} }));
  }

  /** V4: Esc puts every pending prompt aside until `/question`; new questions still open by themselves. */
  closePrompt(): void {
    update(this.store, (s) => ({ view: 'composer', dismissed: Object.fromEntries(pendingRequests(s).map((q) => [q.id, true as const])) }));
  }

  /** V6: `[` / `]` between pending requests, drafts kept. */
  switchRequest(by: -1 | 1): void {
    update(this.store, (s) => {
      const pending = pendingRequests(s);
      if (pending.length < 2) return {};
      const i = pending.findIndex((q) => q.id === s.requestId);
      return { requestId: pending[(i + by + pending.length) % pending.length].id };
    });
  }

  setDraft(id: string, draft: PromptDraft): void {
    update(this.store, (s) => ({ drafts: { ...s.drafts, [id]: draft } }));
  }

  /** The prompt's draft: as typed here, else (E6) what the person who handed it off had typed, else untouched. */
  draftOf(record: Pick<QuestionRecord, 'id' | 'questions' | 'route'>): PromptDraft {
    const s = this.store.getState();
    const kept = s.drafts[record.id];
    if (kept) return kept;
    const handed = handedOffDrafts(record.route, s.identity ?? undefined);
    return handed ? { ...emptyDraft(record), items: draftFromAnswers(record, handed.drafts) } : emptyDraft(record);
  }

  /** PT1-PT4 read here first, so a reply that fits no rule shows why and sends nothing (V4); PT5 on the gateway. */
  private async plainReply(q: QuestionRecord, text: string, confirmed = false): Promise<void> {
    const reading = readPlainTextReply(q.questions, text);
    if (reading.outcome === 'invalid') return this.flash(`Not sent: ${describePlainTextProblems(q.questions, reading.problems)}`, 'error');
    const typed = reading.outcome === 'answered' ? freeText(q, reading.answers) : [];
    const match = detectCredentialIn(typed);
    // W3: free text that looks like a credential waits for the person's yes.
    if (match && !confirmed) return update(this.store, () => ({ confirm: { warning: credentialWarning(match), send: () => void this.plainReply(q, text, true) } }));
    update(this.store, () => ({ composerText: '', flash: null, confirm: null }));
    // PT5 takes a plain reply only for a question a run asked; one asked outside a run (`askdock ask`, an MCP client)
    // gets the same reading as the prompt's own answer.
    if (q.mode === 'blocking' && q.runId === undefined) return reading.outcome === 'skipped' ? this.skip(q) : this.answer(q, reading.answers);
    // An async question's reply carries its answers (or it is skipped). A blocking one's carries them too: its numbers
    // count the options this identity is shown (G5 hides offers it may not make), which the gateway's own reading of
    // the text against the whole list would not (PT5 reads the text only when no answers come with it).
    if (q.mode === 'async' && reading.outcome === 'skipped') return this.skip(q);
    const sessionKey = q.sessionKey!;
    const replyTo = reading.outcome === 'answered' ? { questionId: q.id, answers: reading.answers } : { questionId: q.id };
    const voted = this.votedBefore(q);
    const sent = await this.send(q, () => this.client.request('chat.send', { sessionKey, message: text, idempotencyKey: key(), replyTo }));
    // E5: chat.send does not say whether a reply's Allow was held short of the quorum; the question, read again, does.
    if (sent && q.mode === 'blocking' && q.route?.quorum) {
      const fresh = await this.client.request('question.get', { id: q.id }).catch(() => null);
      const quorum = fresh?.question.status === 'pending' ? fresh.question.route?.quorum : undefined;
      if (quorum) this.held(q, quorum, voted);
    }
  }

  /** E5: whether this person's Allow is already among the quorum's approvals, as this terminal last heard. */
  private votedBefore(q: QuestionRecord): boolean {
    const s = this.store.getState();
    return s.questions[q.id]?.route?.quorum?.approvals.some((a) => a.identity === s.identity) ?? false;
  }

  /** E5: an Allow held short of the quorum leaves the question open to this person too (their Deny still goes). */
  private held(q: QuestionRecord, quorum: QuorumState, voted: boolean): void {
    update(this.store, (s) => {
      const { [q.id]: _held, ...mine } = s.mine;
      return { mine };
    });
    this.flash(heldVoteText(quorum, voted));
  }

  /** The prompt's answers: `question.resolve` for a blocking question, the Q9 reply message for an async one. */
  async answer(q: QuestionRecord, answers: Answers): Promise<void> {
    if (q.mode === 'async') {
      const message = formatAsyncAnswerText(q.questions, answers);
      const replyTo = { questionId: q.id, answers };
      await this.send(q, () => this.client.request('chat.send', { sessionKey: q.sessionKey!, message, idempotencyKey: key(), replyTo }));
      return;
    }
    // E5: their Allow counts once; pressing it again only says so (a Deny still goes: the first Deny denies at once).
    const counted = this.store.getState().questions[q.id]?.route?.quorum;
    const voted = this.votedBefore(q);
    if (counted && voted && allows(answers)) return this.flash(heldVoteText(counted, true));
    const result = await this.send(q, () => this.client.request('question.resolve', { id: q.id, answers, surface: 'tui', resolutionId: key() }));
    if (result?.status === 'pending' && result.quorum) this.held(q, result.quorum, voted);
  }

  /** E4: "I'm on it": `question.ack`; the route comes back (and to every surface by question.routed). */
  async ack(q: QuestionRecord): Promise<void> {
    try {
      const { route } = await this.client.request('question.ack', { id: q.id });
      update(this.store, (s) => (s.questions[q.id] ? { questions: { ...s.questions, [q.id]: { ...s.questions[q.id], route } } } : {}));
    } catch (err) {
      this.flash(`Not acknowledged: ${errorText(err)}`, 'error');
    }
  }

  async skip(q: QuestionRecord): Promise<void> {
    await this.send(q, () => this.client.request('question.resolve', { id: q.id, skip: true, surface: 'tui', resolutionId: key() }));
  }

  private async send<T>(q: QuestionRecord, call: () => Promise<T>): Promise<T | undefined> {
    // A second key before the first answer's event came back (Enter twice) sends nothing more: one answer per question.
    if (this.store.getState().mine[q.id]) return;
    update(this.store, (s) => ({ mine: { ...s.mine, [q.id]: true } }));
    try {
      return await call();
    } catch (err) {
      update(this.store, (s) => {
        const { [q.id]: _gone, ...mine } = s.mine;
        return { mine };
      });
      this.flash(`Not answered: ${errorText(err)}`, 'error');
      const fresh = await this.client.request('question.get', { id: q.id }).catch(() => null);
      if (fresh) update(this.store, (s) => withQuestion(s, fresh.question));
    }
  }
}
