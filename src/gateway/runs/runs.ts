import { invalidRequest, type ChatMessage, type Params, type Phase, type Result, type StopReason } from '../../protocol/index.ts';
import type { Identity } from '../auth.ts';
import type { Tx } from '../hub/hub.ts';
import { newId } from '../infra/ids.ts';
import type { RunRow } from '../store/types.ts';
import type { RoomParts } from '../sessions/room-parts.ts';
import type { Messages } from '../sessions/messages.ts';
import type { OrderStamps } from './order-stamps.ts';
import { requireCurrentRun } from './run-authority.ts';
import { canWriteSession, forbidden } from '../sessions/visibility.ts';

/** What runs are built with: the rooms' parts, messages, the order stamps, and what else a run's end settles. */
export type RunParts = RoomParts & {
  readonly messages: Pick<Messages, 'appendMessage'>;
  readonly stamps: OrderStamps;
  /** Q10: a run's end retires or finishes its questions (questions/question-runs.ts). */
  readonly questionsEnded: (tx: Tx, ended: RunRow, phase: Phase | undefined) => Promise<void>;
  /** K1: a run's end cancels its pending secret requests. */
  readonly secrets: { onRunEnded(tx: Tx, ended: RunRow): Promise<void> };
};

/** C4: agent runs and their streamed assistant messages. */
export class RunService {
  constructor(private readonly parts: RunParts) {}

  async start(identity: Identity, p: Params<'run.start'>): Promise<Result<'run.start'>> {
    const { store, clock } = this.parts;
    const sessionKey = p.sessionKey ?? null;
    if (sessionKey !== null) (await this.parts.access.readableSession(identity, sessionKey));
    // RU1: a subagent run names its parent, a run of the same agent.
    if (p.parentRunId !== undefined) (await this.ownRun(identity, 'run.start', p.parentRunId, 'parentRunId'));
    const run: RunRow = {
      runId: newId('r'),
      sessionKey,
      agentId: identity.id,
      recovery: p.recovery === true,
      startedAtMs: this.parts.stamps.runStarted(),
      ...(p.parentRunId !== undefined ? { parentRunId: p.parentRunId } : {}),
    };
    const trigger = sessionKey !== null ? (await this.latestUserMessage(sessionKey)) : undefined;
    if (trigger) run.triggerMessageId = trigger.id;
    await this.parts.hub.commit(async (tx) => {
      await store.insertRun(run);
      await tx.emit('run.started', { runId: run.runId, sessionKey, recovery: run.recovery }, { sessionKey });
    }, sessionKey);
    return { runId: run.runId };
  }

  /** Q10 without a runId needs to know which user message a run answers: the newest one when it starts. */
  private async latestUserMessage(sessionKey: string): Promise<ChatMessage | undefined> {
    const { messages } = await this.parts.store.history(sessionKey, 50);
    for (let i = messages.length - 1; i >= 0; i--) if (messages[i].role === 'user') return messages[i];
    return undefined;
  }

  private async ownRun(identity: Identity, method: string, runId: string, path = 'runId'): Promise<RunRow> {
    const run = await this.parts.store.getRun(runId);
    if (!run || run.agentId !== identity.id)
      throw invalidRequest(method, [{ path, problem: `no run "${runId}" of this agent: open one with run.start` }]);
    return run;
  }

  /**
   * C4 streaming: the first delta creates the message, later deltas and the final replace its text. The run row keeps
   * which message it streams into (R3), so after a restart, or on another gateway (D2), the stream goes on in the same message.
   */
  async inject(identity: Identity, p: Params<'chat.inject'>): Promise<Result<'chat.inject'>> {
    const { store } = this.parts;
    const ran = await this.ownRun(identity, 'chat.inject', p.runId);
    requireCurrentRun(ran);
    if (ran.endedAtMs !== undefined)
      throw invalidRequest('chat.inject', [{ path: 'runId', problem: `run "${ran.runId}" has ended (${ran.stopReason})` }]);
    const sessionKey = ran.sessionKey;
    if (sessionKey === null)
      throw invalidRequest('chat.inject', [{ path: 'runId', problem: `run "${ran.runId}" has no session: start it with a sessionKey` }]);
    const messageId = await this.parts.hub.commit(async (tx) => {
      // The run and its message as the transaction sees them: the delta before this one may have just made it (D2).
      const run = (await store.getRun(p.runId)) ?? ran;
      const existing = run.streamingMessageId !== undefined ? (await store.getMessage(run.streamingMessageId)) : undefined;
      let message: ChatMessage;
      if (existing) {
        await store.updateMessageText(existing.id, p.text);
        message = { ...existing, text: p.text };
        await tx.emit('chat', { sessionKey, runId: run.runId, message, state: p.state }, { sessionKey });
      } else {
        message = await this.parts.messages.appendMessage(tx, {
          sessionKey,
          role: 'assistant',
          text: p.text,
          authorId: identity.id,
          runId: run.runId,
          state: p.state,
        });
      }
      const { streamingMessageId: _done, ...rest } = run;
      if (p.state === 'final') {
        const phase: Phase = p.phase ?? 'final';
        if (run.phase !== phase || run.streamingMessageId !== undefined) (await store.updateRun({ ...rest, phase }));
      } else if (run.streamingMessageId !== message.id) {
        await store.updateRun({ ...rest, streamingMessageId: message.id });
      }
      return message.id;
    }, sessionKey);
    return { messageId };
  }

  async end(identity: Identity, p: Params<'run.end'>): Promise<Result<'run.end'>> {
    const run = await this.ownRun(identity, 'run.end', p.runId);
    if (run.endedAtMs !== undefined) return { ended: false };
    await this.parts.hub.commit(async (tx) => this.endIn(tx, run, p.stopReason, p.phase), run.sessionKey);
    return { ended: true };
  }

  /** C4 `chat.abort`: operators end a session's open runs (or one of them) with `aborted`. */
  async abort(identity: Identity, p: Params<'chat.abort'>): Promise<Result<'chat.abort'>> {
    const session = await this.parts.access.readableSession(identity, p.sessionKey);
    if (!canWriteSession(identity, session)) throw forbidden(`chat.abort in session "${session.key}"`, ['operator.write'], identity);
    const runs = (await this.parts.store.activeRuns(p.sessionKey)).filter((r) => p.runId === undefined || r.runId === p.runId);
    if (runs.length === 0) return { aborted: [] };
    await this.parts.hub.commit(async (tx) => {
      for (const run of runs) await this.endIn(tx, run, 'aborted', undefined);
    }, p.sessionKey);
    return { aborted: runs.map((r) => r.runId) };
  }

  private async endIn(tx: Tx, run: RunRow, stopReason: StopReason, phase: Phase | undefined): Promise<void> {
    const { streamingMessageId: _stream, ...rest } = run;
    const ended: RunRow = { ...rest, endedAtMs: this.parts.stamps.runEnded(run.startedAtMs), stopReason, ...(phase ? { phase } : {}) };
    await this.parts.store.updateRun(ended);
    await tx.emit('run.ended', { runId: run.runId, sessionKey: run.sessionKey, stopReason }, { sessionKey: run.sessionKey });
    await this.parts.questionsEnded(tx, ended, ended.phase);
    await this.parts.secrets.onRunEnded(tx, ended);
  }
}
