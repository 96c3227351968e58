/** P2: the `connect` handshake's params and its `hello-ok`. */
import * as z from 'zod';
import { Session } from './session.ts';
import { QuestionRecord } from './question.ts';
import { Role, Scope } from './scopes.ts';
import { SecretRequestRecord } from './secret.ts';

export const ClientMode = z.enum(['ui', 'tui', 'cli', 'agent', 'mcp']);
export type ClientMode = z.infer<typeof ClientMode>;

export const ConnectParams = z.object({
  minProtocol: z.number().int().positive(),
  maxProtocol: z.number().int().positive(),
  client: z.object({
    id: z.string().min(1).max(128),
    name: z.string().max(128),
    version: z.string().max(64),
    platform: z.string().max(64),
    mode: ClientMode,
  }),
  auth: z.object({ token: z.string() }),
  resume: z.object({ cursor: z.number().int().nonnegative() }).optional(),
});
export type ConnectParams = z.infer<typeof ConnectParams>;

export const HelloOk = z.object({
  type: z.literal('hello-ok'),
  protocol: z.number().int(),
  /** `publicUrl`: the address people reach the Control UI at, when the gateway was given one; links are made on it. */
  server: z.object({ version: z.string(), connId: z.string(), publicUrl: z.string().optional() }),
  features: z.object({ methods: z.array(z.string()), events: z.array(z.string()) }),
  auth: z.object({ identity: z.string(), role: Role, scopes: z.array(Scope) }),
  policy: z.object({ maxPayload: z.number().int(), tickIntervalMs: z.number().int() }),
  snapshot: z.object({
    cursor: z.number().int(),
    sessions: z.array(Session),
    pendingQuestions: z.array(QuestionRecord),
    /** K1: pending secret requests this identity may see, so a reloaded UI shows them again. */
    pendingSecrets: z.array(SecretRequestRecord).optional(),
    /** Set when the snapshot was cut to fit `policy.maxPayload`: fetch the rest with `sessions.list` / `question.list`. */
    hasMore: z.boolean().optional(),
  }),
  resumed: z.boolean(),
});
export type HelloOk = z.infer<typeof HelloOk>;
