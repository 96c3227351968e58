import type { ReactNode } from 'react';
import { fullTimeText } from '../../../../lib/clock-text.ts';
import { useMinuteClock } from '../../../lib/relative-time.ts';
import type { RoutingStatusResult } from '../../../../protocol/routing.ts';
import { handoffText } from '../lib/handoff-text.ts';
import { RouteCountdown } from './route-countdown.tsx';

// The On call page's table parts: its people, hand-off times and next steps.

/**
 * E9: a person as people know them, by display name; the identity id beside it (in smaller, muted text) where the two
 * differ, since routes and hand-offs name people by id.
 */
export function Person({ id, name }: { id: string; name?: string }) {
  if (!name || name === id) return <span className="oncall-person">{id}</span>;
  // A no-break space: the id never lands on a line of its own in a narrow column.
  return (
    <span className="oncall-person">
      {name}
      {'\u00a0'}
      <span className="oncall-id">({id})</span>
    </span>
  );
}

export const nobody = <span className="muted">nobody</span>;

/** When the next person takes over: a time ahead ("tomorrow 09:00"), the whole instant on hover. */
export function Handoff({ atMs }: { atMs: number }) {
  const now = useMinuteClock();
  return (
    <time dateTime={new Date(atMs).toISOString()} title={fullTimeText(atMs)}>
      {handoffText(atMs, now)}
    </time>
  );
}

/** When a request moves on: who is on it while their acknowledgement lasts, else the next step's timer. */
export function NextStep({ nextAtMs, ackedBy }: { nextAtMs?: number; ackedBy?: RoutingStatusResult['questions'][number]['ackedBy'] }) {
  return (
    <td>
      {ackedBy && ackedBy.untilMs > Date.now() ? (
        <>
          <span className="oncall-person">{ackedBy.name ?? ackedBy.identity}</span> is on it
        </>
      ) : nextAtMs !== undefined ? <RouteCountdown atMs={nextAtMs} /> : <span className="muted">last step</span>}
    </td>
  );
}

/** A table with its column headings, named by its section's heading. */
export function Table({ labelledBy, cols, children }: { labelledBy: string; cols: string[]; children: ReactNode }) {
  return (
    <table aria-labelledby={labelledBy}>
      <thead>
        <tr>
          {cols.map((c) => (
            <th key={c} scope="col">
              {c}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>{children}</tbody>
    </table>
  );
}
