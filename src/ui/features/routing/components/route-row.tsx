import type { QuestionRecord } from '../../../../protocol/index.ts';
import type { RouteState } from '../../../../protocol/routing.ts';
import { Button } from '../../../components/ui/button.tsx';
import { useNow } from '../../../lib/use-now.ts';
import { useAck } from '../api/route-actions.ts';
import { useRouteWords } from '../api/get-routing-status.ts';
import { useMayAnswer } from '../hooks/use-may-answer.ts';
import { ackText, quorumText, waitsForText } from '../../../../lib/route-text.ts';
import '../routing.css';
import { HandoffPopover } from './handoff-popover.tsx';
import { RouteCountdown } from './route-countdown.tsx';

/**
 * E4, E5, E9: the dock's routing row: who the question waits for and when it moves on, who is on it, the quorum so far,
 * "I'm on it" and "Hand off…" for those it waits for; read-only words for anyone else who may see it.
 */
export default function RouteRow({ record }: { record: QuestionRecord & { route: RouteState } }) {
  const { route } = record;
  const eligible = useMayAnswer(route);
  const ack = useAck(record.id);
  // Minute-grained: the acknowledgement lasts half an hour; the countdown below ticks by itself.
  const now = useNow(route.ackedBy !== undefined, 30_000);
  const acked = ackText(route, now);
  const quorum = quorumText(route);
  // Until routing.status has answered (or from a gateway without it), the people notified, by id.
  const words = useRouteWords(record.id);
  const waitsFor = words?.waitsFor?.join(', ') ?? waitsForText(route);
  const nextTo = words?.next?.join(', ');
  // E9: a next step the question expires before gets no countdown, only its "not reached".
  const nextUnreached = words !== undefined && !words.next && (words.unreached?.length ?? 0) > 0;
  return (
    <div className="rt-row" role="group" aria-label="Routing">
      <span className="rt-for">
        For {waitsFor}
        {route.nextAtMs !== undefined && !nextUnreached && (
          <>
            {nextTo ? ` · to ${nextTo} ` : ' · next step '}
            <RouteCountdown atMs={route.nextAtMs} paused={acked !== null} />
          </>
        )}
        {words?.unreached?.map((label, i) => (
          <span key={i} className="rt-unreached">
            {` · ${label}: not reached before it expires`}
          </span>
        ))}
      </span>
      {acked && <span className="rt-pill rt-acked">{acked}</span>}
      {quorum && <span className="rt-pill rt-quorum">{quorum}</span>}
      {!eligible && <span className="rt-readonly">Waiting for {waitsFor}: you can read it but not answer</span>}
      {eligible && (
        <span className="rt-actions">
          {!acked && (
            <Button size="sm" variant="secondary" disabled={ack.isPending} onClick={() => ack.mutate()}>
              I'm on it
            </Button>
          )}
          <HandoffPopover recordId={record.id} />
        </span>
      )}
      {ack.error && <span role="alert" className="rt-error">Not acknowledged: {ack.error.message}</span>}
    </div>
  );
}
