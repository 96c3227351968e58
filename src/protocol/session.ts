import { z } from 'zod';
import { Answers } from './question.ts';

export const Session = z.object({
  key: z.string(),
  title: z.string(),
  createdBy: z.string(),
  /** A6: the agent identity the session is bound to; null only where the config has no agent. */
  agentId: z.string().nullable(),
  createdAtMs: z.number(),
  lastMessageAtMs: z.number().nullable(),
  pendingQuestions: z.number().int().nonnegative(),
});
export type Session = z.infer<typeof Session>;

export const MessageRole = z.enum(['user', 'assistant', 'system']);
export type MessageRole = z.infer<typeof MessageRole>;

export const ReplyTo = z.object({ questionId: z.string().min(1), answers: Answers.optional() });
export type ReplyTo = z.infer<typeof ReplyTo>;

export const ChatMessage = z.object({
  id: z.string(),
  sessionKey: z.string(),
  role: MessageRole,
  text: z.string(),
  authorId: z.string(),
  runId: z.string().optional(),
  replyTo: ReplyTo.optional(),
  createdAtMs: z.number(),
  seq: z.number(),
});
export type ChatMessage = z.infer<typeof ChatMessage>;

export const StopReason = z.enum(['end_turn', 'aborted', 'cancelled', 'timeout', 'error', 'tool_use']);
export type StopReason = z.infer<typeof StopReason>;
export const ChatState = z.enum(['delta', 'final']);
export type ChatState = z.infer<typeof ChatState>;
export const Phase = z.enum(['commentary', 'final']);
export type Phase = z.infer<typeof Phase>;
