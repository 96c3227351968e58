import * as z from 'zod';
import { ChosenGrant } from './policy.ts';
import { MAX_TIMEOUT_MS, MIN_TIMEOUT_MS } from './rules.ts';

/** E1: where a question comes from, as a route's `match.source` names it. */
export const QuestionSource = z
  .string()
  .max(128)
  .regex(/^(hook:[a-z0-9_-]+|mcp-proxy:.+|sdk|mcp|cli)$/, { error: 'source must be hook:<agent>, mcp-proxy:<server>, sdk, mcp or cli' });

/** E3: a target routing passed over, and why (nobody on call, may not see the question, ...). */
export const RouteSkip = z.object({ target: z.string(), reason: z.string(), identity: z.string().optional(), atMs: z.number().optional() });

/** E11: a routed question's route state, part of its record. */
export const RouteState = z.object({
  escalation: z.string(),
  step: z.number().int().nonnegative(),
  notified: z.array(z.string()),
  /** E2: who the current repeat of the steps notified so far (absent in the first run through them: `notified` says it). */
  roundNotified: z.array(z.string()).optional(),
  /** The step that wrote `roundNotified` (a list carried past another step by a gateway that does not keep it is stale). */
  roundStep: z.number().int().nonnegative().optional(),
  /** E9: whom the running step's people and schedules reached when it ran (the dock names them, not who is on call now). */
  stepReached: z.array(z.string()).optional(),
  nextAtMs: z.number().optional(),
  /** E4: `name`, the person's display name ("Ana is on it"). */
  ackedBy: z.object({ identity: z.string(), name: z.string().optional(), atMs: z.number(), untilMs: z.number() }).optional(),
  /**
   * E5: each approval with its giver's display name (`name`), for "1 of 2 approvals (Ana)", and `grant`, the "Always
   * allow…" it chose (checked when given), made when the quorum completes if no other approval chose a different one.
   */
  quorum: z
    .object({
      needed: z.number().int().positive(),
      approvals: z.array(z.object({ identity: z.string(), name: z.string().optional(), surface: z.string(), atMs: z.number(), grant: ChosenGrant.optional() })),
    })
    .optional(),
  /**
   * E6: `drafts`, the sender's answers typed so far, for the target's surfaces to start from; `reached`, the identities
   * the hand-off reached (its targets), the only ones the gateway sends the drafts to.
   */
  handoffs: z
    .array(
      z.object({
        from: z.string(),
        to: z.string(),
        note: z.string().optional(),
        atMs: z.number(),
        drafts: z.record(z.string(), z.array(z.string())).optional(),
        reached: z.array(z.string()).optional(),
      }),
    )
    .optional(),
  eligible: z.array(z.string()),
  skipped: z.array(RouteSkip).optional(),
  /**
   * E9 for K1: the display names of the people a routed secret request notified so far, by identity id ("For Ana, Bo")
   * until routing.status's words (`secrets`) come, and from a gateway without them. Someone without a display name is left out (named by id).
   */
  names: z.record(z.string(), z.string()).optional(),
});
export type RouteState = z.infer<typeof RouteState>;

const Id = z.string().min(1).max(128);
const HandoffTarget = z.string().max(200).regex(/^(identity|group):.+$/, { error: 'to must be "identity:<id>" or "group:<name>"' });

export const QuestionAckParams = z.object({ id: Id });
export const QuestionHandoffParams = z.object({
  id: Id,
  to: HandoffTarget,
  note: z.string().max(2000, { error: 'note must be at most 2000 characters' }).optional(),
  /** E6: the sender's drafts so far, per question item; the target's surfaces start from them. */
  drafts: z.record(z.string().max(128), z.array(z.string().max(10_000)).max(64)).optional(),
});
export const RouteResult = z.object({ route: RouteState });

/** E12: one open routed request as routing.status lists it, its step and timer, and its route in words (E9). */
const RoutedView = z.object({
  id: z.string(),
  step: z.number(),
  nextAtMs: z.number().optional(),
  /** E9: who the request waits for now, by display name or group name ("ops", "Ana"). */
  waitsFor: z.array(z.string()).optional(),
  /** E9: who the next step reaches, named the same way, when it comes before the request expires. */
  next: z.array(z.string()).optional(),
  /** E9: the steps the request expires before, each named by who it would reach. */
  unreached: z.array(z.string()).optional(),
});

export const RoutingStatusResult = z.object({
  schedules: z.array(
    z.object({
      name: z.string(),
      /** The identity on call now and the one after it, by id (null: nobody). */
      now: z.string().nullable(),
      next: z.string().nullable(),
      nextAtMs: z.number().nullable(),
      /** E9: their display names (the config's `name`, else the id), for the pages that list people. */
      nowName: z.string().optional(),
      nextName: z.string().optional(),
    }),
  ),
  questions: z.array(RoutedView.extend({ ackedBy: RouteState.shape.ackedBy })),
  /**
   * E9/E12 for K1: the open routed secret requests the caller may see (A3: as privileged questions), by the name asked
   * for and the session they dock in; never a value. Absent from a gateway that predates it.
   */
  secrets: z.array(RoutedView.extend({ name: z.string(), sessionKey: z.string().optional() })).optional(),
});
export type RoutingStatusResult = z.infer<typeof RoutingStatusResult>;

/** E12: an instant with its offset, seconds optional (`2026-03-02T09:00Z`, `2026-03-02T10:00:00.5+01:00`), as the config's times are written. */
const withSeconds = z.iso.datetime({ offset: true });
const toTheMinute = z.iso.datetime({ offset: true, precision: -1 });
const IsoInstant = z
  .string({ error: 'at must be an ISO time such as 2026-03-02T09:00:00Z' })
  .refine((v) => withSeconds.safeParse(v).success || toTheMinute.safeParse(v).success, {
    error: 'at must be an ISO time with its offset, on a real date, such as 2026-03-02T09:00Z or 2026-03-02T09:00:00+01:00',
  });

export const RoutingTestParams = z.object({
  kind: z.enum(['question', 'approval', 'elicitation', 'secret']).optional(),
  agent: z.string().max(128).optional(),
  source: QuestionSource.optional(),
  tool: z.string().max(1000).optional(),
  /** ISO time; default now. */
  at: IsoInstant.optional(),
  /** Additive: the session the question would be asked in (a route's `match.session`). */
  session: z.string().max(128, { error: 'session must be at most 128 characters' }).optional(),
  /** Additive: the question's timeout, as question.request takes it (default 15 minutes); the steps after it are `unreached`. */
  timeoutMs: z
    .number({ error: 'timeoutMs must be a number' })
    .int({ error: 'timeoutMs must be a whole number of milliseconds' })
    .min(MIN_TIMEOUT_MS, { error: `timeoutMs must be at least ${MIN_TIMEOUT_MS}` })
    .max(MAX_TIMEOUT_MS, { error: `timeoutMs must be at most ${MAX_TIMEOUT_MS}` })
    .optional(),
});
const PlannedStepView = z.object({
  step: z.number(),
  atMs: z.number(),
  notify: z.array(z.string()),
  /** Additive: the escalation's step it runs, the repeat it is in, the targets it names and those it skipped. */
  index: z.number().optional(),
  round: z.number().optional(),
  targets: z.array(z.string()).optional(),
  skipped: z.array(z.object({ target: z.string(), reason: z.string(), identity: z.string().optional() })).optional(),
  /** Additive (E2): those of `notify` the step does not notify again, its round having notified them at an earlier step. */
  alreadyNotified: z.array(z.string()).optional(),
});
export const RoutingTestResult = z.object({
  route: z.object({ routes: z.array(z.number()), escalation: z.string(), quorum: z.number().optional() }).nullable(),
  steps: z.array(PlannedStepView),
  unreached: z.array(PlannedStepView),
  /** Additive: when it is asked and expires, and what happens when the steps run out (null: no route). */
  atMs: z.number().optional(),
  expiresAtMs: z.number().optional(),
  exhausted: z.object({ action: z.string(), atMs: z.number(), reached: z.boolean() }).nullable().optional(),
});
export type RoutingTestResult = z.infer<typeof RoutingTestResult>;

/** E5: a quorum's state; an Allow that leaves it short answers `{status: "pending", quorum}`. */
export const QuorumState = RouteState.shape.quorum.unwrap();
export type QuorumState = z.infer<typeof QuorumState>;

/** E8: who answered, as the agent hears it: the identity, the display name and the surface. */
export const ResolvedByView = z.object({ identity: z.string(), name: z.string().optional(), surface: z.string(), atMs: z.number() });
export type ResolvedByView = z.infer<typeof ResolvedByView>;
