/** Sessions, chat and runs (S*, C*, R*): their methods' params, results and scopes. */
import * as z from 'zod';
import { ChatMessage, ChatState, Phase, ReplyTo, Session, StopReason } from './session.ts';
import { MESSAGE_MAX, MESSAGE_SENDER_SCOPES, SESSION_CREATOR_SCOPES, SESSION_READER_SCOPES, SESSION_TITLE_MAX } from './rules.ts';
import type { Scope } from './scopes.ts';
import { Empty, IdempotencyKey, Key } from './method-parts.ts';

export const sessionMethods = {
  'sessions.create': () => ({
    params: z.object({
      title: z.string().max(SESSION_TITLE_MAX, { error: `title must be at most ${SESSION_TITLE_MAX} characters` }).optional(),
      agentId: z.string().min(1).max(128).optional(),
      idempotencyKey: IdempotencyKey.optional(),
    }),
    result: z.object({ session: Session }),
    scopes: [...SESSION_CREATOR_SCOPES],
  }),
  'sessions.update': () => ({
    params: z.object({
      sessionKey: Key,
      title: z
        .string({ error: 'title must be a string' })
        .trim()
        .min(1, { error: 'title must not be blank' })
        .max(SESSION_TITLE_MAX, { error: `title must be at most ${SESSION_TITLE_MAX} characters` }),
    }),
    result: z.object({ session: Session }),
    scopes: ['operator.admin', 'operator.write', 'operator.sessions.write', 'agent.run'] as Scope[],
  }),
  'sessions.list': () => ({
    params: Empty,
    result: z.object({ sessions: z.array(Session) }),
    scopes: [...SESSION_READER_SCOPES],
  }),
  'chat.send': () => ({
    params: z.object({
      sessionKey: Key,
      message: z
        .string({ error: 'message must be a string' })
        .min(1, { error: 'message must not be empty' })
        .max(MESSAGE_MAX, { error: `message must be at most ${MESSAGE_MAX} characters` }),
      idempotencyKey: IdempotencyKey,
      replyTo: ReplyTo.optional(),
    }),
    result: z.object({ messageId: z.string(), seq: z.number().int(), deduped: z.boolean() }),
    scopes: [...MESSAGE_SENDER_SCOPES],
  }),
  'chat.history': () => ({
    params: z.object({
      sessionKey: Key,
      limit: z.number().int().min(1).max(500).optional(),
      before: z.string().optional(),
    }),
    result: z.object({ messages: z.array(ChatMessage), hasMore: z.boolean() }),
    scopes: [...SESSION_READER_SCOPES],
  }),
  'chat.abort': () => ({
    params: z.object({ sessionKey: Key, runId: Key.optional() }),
    result: z.object({ aborted: z.array(z.string()) }),
    scopes: ['operator.admin', 'operator.write', 'operator.sessions.write'] as Scope[],
  }),
  'run.start': () => ({
    params: z.object({ sessionKey: Key.optional(), recovery: z.boolean().optional(), parentRunId: Key.optional() }),
    result: z.object({ runId: z.string() }),
    scopes: ['agent.run'] as Scope[],
  }),
  'chat.inject': () => ({
    params: z.object({
      runId: Key,
      text: z.string().max(MESSAGE_MAX),
      state: ChatState,
      phase: Phase.optional(),
    }),
    result: z.object({ messageId: z.string() }),
    scopes: ['agent.run'] as Scope[],
  }),
  'run.end': () => ({
    params: z.object({ runId: Key, stopReason: StopReason, phase: Phase.optional() }),
    result: z.object({ ended: z.boolean() }),
    scopes: ['agent.run'] as Scope[],
  }),
  'agent.subscribe': () => ({
    params: z.object({ sessionKey: Key.optional() }),
    result: z.object({ subscribed: z.boolean() }),
    scopes: ['agent.run'] as Scope[],
  }),
};
