import type { QuestionRecord, RouteState } from '../../protocol/index.ts';
import type { StoredEvent } from '../store/types.ts';

/**
 * E6: the drafts a hand-off carries are the sender's typing, for its targets alone (the identities it reached). Every
 * other receiver (the asking agent, admins, other viewers, the sender) reads the route without them: one per-receiver
 * view of the record used by every event, reply, snapshot and replay that carries it.
 */
export function routeFor<R extends RouteState>(route: R, identity: string): R {
  const handoffs = route.handoffs;
  if (!handoffs?.some((h) => h.drafts && !h.reached?.includes(identity))) return route;
  return { ...route, handoffs: handoffs.map((h) => (h.drafts && !h.reached?.includes(identity) ? withoutDrafts(h) : h)) };
}

function withoutDrafts<H extends { drafts?: unknown }>(h: H): Omit<H, 'drafts'> {
  const { drafts: _typed, ...rest } = h;
  return rest;
}

/** A question record as `identity` may read it (E6). */
export function recordFor<Q extends Pick<QuestionRecord, 'route'>>(q: Q, identity: string): Q {
  if (!q.route) return q;
  const route = routeFor(q.route, identity);
  return route === q.route ? q : { ...q, route };
}

/** An event's payload as `identity` may read it, or undefined when it is the same for everyone (the shared frame). */
export function eventPayloadFor(ev: Pick<StoredEvent, 'event' | 'payload'>, identity: string): unknown {
  if (ev.event === 'question.routed') {
    const p = ev.payload as { route: RouteState };
    const route = routeFor(p.route, identity);
    return route === p.route ? undefined : { ...p, route };
  }
  if (ev.event === 'question.requested') {
    const p = ev.payload as { question: QuestionRecord };
    const question = recordFor(p.question, identity);
    return question === p.question ? undefined : { ...p, question };
  }
  return undefined;
}
