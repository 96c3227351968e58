import type { ReactNode } from 'react';
import { fullTimeText } from '../../../../lib/clock-text.ts';
import { errorMessage } from '../../../lib/error-message.ts';
import { useMinuteClock } from '../../../lib/relative-time.ts';
import { INBOX_PATH } from '../../../lib/inbox.ts';
import { Link, questionPath, sessionPath } from '../../../lib/router.tsx';
import type { RoutingStatusResult } from '../../../../protocol/routing.ts';
import { useQuestions } from '../../questions/api/get-questions.ts';
import { useRoutingStatus } from '../api/get-routing-status.ts';
import { handoffText } from '../lib/handoff-text.ts';
import { RouteCountdown } from './route-countdown.tsx';
import '../routing.css';

/** The open question's first header, from the questions cache, to name it on the page. */
function useQuestionTitles(): Map<string, string> {
  return useQuestions((list) => new Map(list.map((r) => [r.id, r.questions[0]?.header ?? r.id]))) ?? new Map();
}

/**
 * E9: a person as people know them, by display name; the identity id beside it (in smaller, muted text) where the two
 * differ, since routes and hand-offs name people by id.
 */
function Person({ id, name }: { id: string; name?: string }) {
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

const nobody = <span className="muted">nobody</span>;

/** When the next person takes over: a time ahead ("tomorrow 09:00"), the whole instant on hover. */
function Handoff({ atMs }: { atMs: number }) {
  const now = useMinuteClock();
  return (
    <time dateTime={new Date(atMs).toISOString()} title={fullTimeText(atMs)}>
      {handoffText(atMs, now)}
    </time>
  );
}

/** When a request moves on: who is on it while their acknowledgement lasts, else the next step's timer. */
function NextStep({ nextAtMs, ackedBy }: { nextAtMs?: number; ackedBy?: RoutingStatusResult['questions'][number]['ackedBy'] }) {
  return (
    <td>
      {ackedBy && ackedBy.untilMs > Date.now() ? (
        <>
          <Person id={ackedBy.identity} name={ackedBy.name} /> is on it
        </>
      ) : nextAtMs !== undefined ? <RouteCountdown atMs={nextAtMs} /> : <span className="muted">last step</span>}
    </td>
  );
}

/** A table with its column headings, named by its section's heading. */
function Table({ labelledBy, cols, children }: { labelledBy: string; cols: string[]; children: ReactNode }) {
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

/** `/on-call` (E9, E12): each schedule's person now and next, and every open routed question or secret request with its step and timer. Its own chunk. */
export default function OnCallPage() {
  const status = useRoutingStatus();
  const titles = useQuestionTitles();
  // E9 for K1: open routed secret requests are listed with the questions (absent from a gateway that predates them).
  const secrets = status.data?.secrets ?? [];
  let body;
  if (status.isError) body = <p className="inline-error">Could not load who is on call: {errorMessage(status.error)}</p>;
  else if (!status.data) body = <p className="muted">Loading…</p>;
  else
    body = (
      <>
        <section aria-labelledby="oncall-schedules">
          <h2 id="oncall-schedules">Schedules</h2>
          {status.data.schedules.length === 0 ? (
            <p className="muted">No schedules.</p>
          ) : (
            <Table labelledBy="oncall-schedules" cols={['Schedule', 'Now', 'Next']}>
                {status.data.schedules.map((s) => (
                  <tr key={s.name}>
                    <th scope="row">{s.name}</th>
                    <td>{s.now === null ? nobody : <Person id={s.now} name={s.nowName} />}</td>
                    <td>
                      {s.next === null ? nobody : <Person id={s.next} name={s.nextName} />}
                      {s.nextAtMs !== null && (
                        <span className="muted oncall-handoff">
                          {' '}
                          from <Handoff atMs={s.nextAtMs} />
                        </span>
                      )}
                    </td>
                  </tr>
                ))}
            </Table>
          )}
        </section>
        {/* Questions and secret requests alike (K1): the heading and the first column name both. */}
        <section aria-labelledby="oncall-requests">
          <h2 id="oncall-requests">Open routed requests</h2>
          {status.data.questions.length + secrets.length === 0 ? (
            <p className="muted">None waiting.</p>
          ) : (
            <Table labelledBy="oncall-requests" cols={['Request', 'Step', 'Next step']}>
                {status.data.questions.map((q) => (
                  <tr key={q.id}>
                    <td>
                      <Link to={questionPath(q.id)}>{titles.get(q.id) ?? q.id}</Link>
                    </td>
                    <td>{q.step + 1}</td>
                    <NextStep nextAtMs={q.nextAtMs} ackedBy={q.ackedBy} />
                  </tr>
                ))}
                {secrets.map((r) => (
                  <tr key={`secret:${r.id}`}>
                    <td>
                      {/* K1: a secret request docks in its session, or in the Inbox without one (U15). */}
                      <span className="oncall-kind">Secret</span>{' '}
                      <Link to={r.sessionKey !== undefined ? sessionPath(r.sessionKey) : INBOX_PATH}>{r.name}</Link>
                    </td>
                    <td>{r.step + 1}</td>
                    <NextStep nextAtMs={r.nextAtMs} />
                  </tr>
                ))}
            </Table>
          )}
        </section>
      </>
    );
  return (
    <div className="oncall-page">
      <header>
        <h1>On call</h1>
        <p className="muted">Who routed questions reach now and next, and the questions and secret requests waiting on a step.</p>
      </header>
      {body}
    </div>
  );
}
