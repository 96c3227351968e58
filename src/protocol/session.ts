import * as z from 'zod';
import { Answers } from './question.ts';

/**
 * U18: whether a session's agent is here. `working`: a run is open in the session; `connected`: the agent has a
 * connection to this gateway; `absent`: neither. `sinceMs`: since when (null: not seen since the gateway started).
 */
export const AgentPresenceState = z.enum(['connected', 'working', 'absent']);
export type AgentPresenceState = z.infer<typeof AgentPresenceState>;
export const AgentPresence = z.object({ state: AgentPresenceState, sinceMs: z.number().nullable() });
export type AgentPresence = z.infer<typeof AgentPresence>;

/** The client name the demo agent of `askdock start` connects with (U18: its gateway needs no "Connect an agent"). */
export const DEMO_AGENT_CLIENT_NAME = 'askdock-demo-agent';

export { INTEGRATION_AGENT_ID } from './identities.ts';

export const Session = z.object({
  key: z.string(),
  title: z.string(),
  createdBy: z.string(),
  /** A6: the agent identity the session is bound to; null only where the config has no agent. */
  agentId: z.string().nullable(),
  createdAtMs: z.number(),
  lastMessageAtMs: z.number().nullable(),
  pendingQuestions: z.number().int().nonnegative(),
  /** U18: in sessions.list and the hello snapshot (then `session.presence` events); absent where the session has no agent. */
  agentPresence: AgentPresence.optional(),
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
