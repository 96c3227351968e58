import { useEffect, useRef } from 'react';
import type { QuestionRecord } from '../../../../protocol/index.ts';
import type { RouteState } from '../../../../protocol/routing.ts';
import { Button } from '../../../components/ui/button.tsx';
import { useNow } from '../../../lib/use-now.ts';
import { useAck } from '../api/route-actions.ts';
import { useRouteWords } from '../api/get-routing-status.ts';
import { useMayAnswer } from '../hooks/use-may-answer.ts';
import { ackText, ownApprovalText, quorumText } from '../../../../lib/route-text.ts';
import { useHello } from '../../../lib/gateway.tsx';
import { HandoffPopover } from './handoff-popover.tsx';
import { RouteLine } from './route-line.tsx';

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
  // E5: their own Allow is held: it counts once, and the question waits for the next approver.
  const own = ownApprovalText(route, useHello()?.auth.identity);
  // Until routing.status has answered (or from a gateway without it), the people notified, by id.
  const words = useRouteWords(record.id);
  // A keyboard user's "I'm on it" goes once it took: focus moves to the words that replace it, never to the page.
  const ackFocused = useRef(false);
  const ackedPill = useRef<HTMLSpanElement>(null);
  useEffect(() => {
    if (!acked || !ackFocused.current) return;
    ackFocused.current = false;
    // Only where the button's going dropped focus to the page: a person who moved on meanwhile keeps their place.
    const active = document.activeElement;
    if (active === null || active === document.body) ackedPill.current?.focus();
  }, [acked]);
  return (
    <RouteLine route={route} words={words} paused={acked !== null}>
      {acked && (
        <span ref={ackedPill} tabIndex={-1} className="rt-pill rt-acked">
          {acked}
        </span>
      )}
      {quorum && <span className="rt-pill rt-quorum">{quorum}</span>}
      {own && <span className="rt-own">{own}</span>}
      {eligible && (
        <span className="rt-actions">
          {!acked && (
            // aria-disabled, not disabled: the button keeps focus while the gateway takes the acknowledgement.
            <Button
              size="sm"
              variant="secondary"
              aria-disabled={ack.isPending || undefined}
              onClick={(e) => {
                if (ack.isPending) return;
                ackFocused.current = e.currentTarget === document.activeElement;
                // A refused or failed acknowledgement leaves the button where it is: nothing to hand focus to later.
                ack.mutate(undefined, { onError: () => (ackFocused.current = false) });
              }}
            >
              I'm on it
            </Button>
          )}
          <HandoffPopover recordId={record.id} />
        </span>
      )}
      {ack.error && <span role="alert" className="rt-error">Not acknowledged: {ack.error.message}</span>}
    </RouteLine>
  );
}
