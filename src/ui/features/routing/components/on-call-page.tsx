import { errorMessage } from '../../../lib/error-message.ts';
import { INBOX_PATH } from '../../../lib/inbox.ts';
import { Link, questionPath, sessionPath } from '../../../lib/router.tsx';
import { useQuestions } from '../../questions/api/get-questions.ts';
import { useRoutingStatus } from '../api/get-routing-status.ts';
import { Handoff, NextStep, nobody, Person, Table } from './on-call-cells.tsx';
import '../routing.css';

/** The open question's first header, from the questions cache, to name it on the page. */
function useQuestionTitles(): Map<string, string> {
  return useQuestions((list) => new Map(list.map((r) => [r.id, r.questions[0]?.header ?? r.id]))) ?? new Map();
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
