import type { StoredQuestion } from './types.ts';

/**
 * E2/E11: the escalation duty's reads, answered from an index of each pending question's next step deadline
 * (`route.nextAtMs`), so a tick costs the due questions, not every pending one.
 */
export interface RouteStoreMethods {
  /** Pending questions whose next step is due (`route.nextAtMs <= nowMs`), earliest first, at most `limit`. */
  dueRoutes(nowMs: number, limit: number): StoredQuestion[];
  /** The earliest `route.nextAtMs` among pending questions, or null. */
  nextRouteMs(): number | null;
}

/** A pending question's next step deadline, or undefined when it has none. */
export function routeDeadline(q: StoredQuestion | undefined): number | undefined {
  return q?.status === 'pending' ? q.route?.nextAtMs : undefined;
}
