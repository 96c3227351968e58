/** Secrets (K1), agents (U18), push (U17), policy (G9/G12), routing (E12) and the audit log (L3-L9): their methods. */
import * as z from 'zod';
import { AgentPresence } from './session.ts';
import { SCOPES, type Scope } from './scopes.ts';
import { PushSubscriptionId, PushSubscriptionInfo, PushSubscriptionInput, PushUnsubscribeParams } from './push.ts';
import { RoutingStatusResult, RoutingTestParams, RoutingTestResult } from './routing.ts';
import { PolicyCheckParams, PolicyCheckResult, PolicyGetResult } from './policy.ts';
import { AuditAcknowledgeParams, AuditAcknowledgeResult, AuditCheckpointParams, AuditCheckpointResult, AuditExportParams, AuditExportResult, AuditProofParams, AuditProofResult } from './audit.ts';
import { SecretName, SecretProvideParams, SecretRequestParams, SecretRequestRecord, SecretStatus, SecretWaitResult } from './secret.ts';
import { Empty, Key } from './method-parts.ts';

/** L9: methods for anyone who holds a receipt, whatever its scopes. */
const EVERY_IDENTITY: Scope[] = [...SCOPES];

export const settingMethods = {
  'secret.request': () => ({
    params: SecretRequestParams,
    result: z.object({ id: z.string(), expiresAtMs: z.number() }),
    scopes: ['agent.run'] as Scope[],
  }),
  'secret.provide': () => ({
    params: SecretProvideParams,
    result: z.object({ status: SecretStatus, name: z.string() }),
    scopes: ['operator.admin', 'operator.questions', 'operator.sessions.write'] as Scope[],
  }),
  'secret.waitResult': () => ({
    params: z.object({ id: Key, timeoutMs: z.number().int().nonnegative().optional() }),
    result: SecretWaitResult,
    scopes: ['agent.run'] as Scope[],
  }),
  'secret.cancel': () => ({
    params: z.object({ id: Key, reason: z.string().max(200).optional() }),
    result: z.object({ status: SecretStatus, name: z.string() }),
    scopes: ['agent.run'] as Scope[],
  }),
  'secret.get': () => ({
    params: z.object({ name: SecretName }),
    result: z.object({ value: z.string() }),
    scopes: ['agent.secrets'] as Scope[],
  }),
  /** U18 "Connect an agent": each agent identity with its token (null when the config keeps only its hash), admins only. */
  'agents.connectInfo': () => ({
    params: Empty,
    result: z.object({
      agents: z.array(
        z.object({
          id: z.string(),
          token: z.string().nullable(),
          presence: AgentPresence,
          /** The demo agent of `askdock start` is connected as this identity. */
          demo: z.boolean(),
        }),
      ),
    }),
    scopes: ['operator.admin'] as Scope[],
  }),
  'secret.list': () => ({
    params: z.object({ status: SecretStatus.optional() }).optional().transform((p) => p ?? {}),
    result: z.object({ requests: z.array(SecretRequestRecord) }),
    scopes: ['operator.admin', 'operator.questions', 'operator.sessions.write', 'agent.run'] as Scope[],
  }),
  // U17: Web Push for the identity's own browsers; those who may answer questions (A3) subscribe.
  'push.config': () => ({
    params: Empty,
    /** The VAPID application server key (base64url) a browser subscribes with. */
    result: z.object({ publicKey: z.string() }),
    scopes: ['operator.admin', 'operator.questions', 'operator.sessions.write'] as Scope[],
  }),
  'push.subscribe': () => ({
    params: z.object({ subscription: PushSubscriptionInput }),
    /** `id`: what `push.list` shows this subscription as and `push.unsubscribe {id}` removes. */
    result: z.object({ subscribed: z.boolean(), id: PushSubscriptionId }),
    scopes: ['operator.admin', 'operator.questions', 'operator.sessions.write'] as Scope[],
  }),
  /** The caller's own subscriptions (its devices), oldest first: ids and push services, never endpoints or keys. */
  'push.list': () => ({
    params: Empty,
    result: z.object({ subscriptions: z.array(PushSubscriptionInfo) }),
    scopes: ['operator.admin', 'operator.questions', 'operator.sessions.write'] as Scope[],
  }),
  /** By `endpoint` (the browser turning push off: false when none of the caller's) or by `id` (PUSH_SUBSCRIPTION_NOT_FOUND). */
  'push.unsubscribe': () => ({
    params: PushUnsubscribeParams,
    result: z.object({ unsubscribed: z.boolean() }),
    scopes: ['operator.admin', 'operator.questions', 'operator.sessions.write'] as Scope[],
  }),
  /** G12: the policy in force, its grants, and why the last reload failed (admins only). */
  'policy.get': () => ({ params: Empty, result: PolicyGetResult, scopes: ['operator.admin'] as Scope[] }),
  /** G9/G12: what the policy decides for a request; an agent checks for itself. */
  'policy.check': () => ({ params: PolicyCheckParams, result: PolicyCheckResult, scopes: ['operator.admin', 'agent.run'] as Scope[] }),
  /** G12: an admin or the grant's maker ends a grant. */
  'policy.grant.revoke': () => ({
    params: z.object({ id: Key }),
    result: z.object({ revoked: z.boolean() }),
    scopes: ['operator.admin', 'operator.questions', 'operator.sessions.write'] as Scope[],
  }),
  /** E12: each schedule's person now and next, and the routed questions the caller may see. */
  'routing.status': () => ({
    params: Empty,
    result: RoutingStatusResult,
    scopes: ['operator.admin', 'operator.questions', 'operator.sessions.write', 'operator.read', 'operator.write'] as Scope[],
  }),
  /** E12: the route a described question would take and each step's people, without asking anyone. */
  'routing.test': () => ({ params: RoutingTestParams, result: RoutingTestResult, scopes: ['operator.admin', 'operator.questions', 'operator.sessions.write', 'operator.read', 'operator.write'] as Scope[] }),
  /** L3/L9: the newest signed checkpoint, for anyone checking a receipt; `sign:true` (admins, checked by the room) signs one now. */
  'audit.checkpoint': () => ({ params: AuditCheckpointParams, result: AuditCheckpointResult, scopes: EVERY_IDENTITY }),
  /** L9: an entry's inclusion proof, for anyone holding its receipt (hashes only: no entry's content). */
  'audit.proof': () => ({ params: AuditProofParams, result: AuditProofResult, scopes: EVERY_IDENTITY }),
  /** L5/L9: the export's files, a page at a time (admins only). */
  'audit.export': () => ({ params: AuditExportParams, result: AuditExportResult, scopes: ['operator.admin'] as Scope[] }),
  /** L7: an admin acknowledges a failed self-check, so checkpoints are signed again. */
  'audit.acknowledge': () => ({ params: AuditAcknowledgeParams, result: AuditAcknowledgeResult, scopes: ['operator.admin'] as Scope[] }),
};
