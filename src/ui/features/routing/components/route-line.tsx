import type { ReactNode } from 'react';
import type { RouteState } from '../../../../protocol/routing.ts';
import { useMayAnswer } from '../hooks/use-may-answer.ts';
import { waitsForText } from '../../../../lib/route-text.ts';
import '../routing.css';
import { RouteCountdown } from './route-countdown.tsx';

/** E9: the route in the gateway's words (routing.status); without them, the people notified, by id. */
export type RouteWords = { waitsFor?: string[]; next?: string[]; unreached?: string[] };

type Props = { route: RouteState; words?: RouteWords; paused?: boolean; children?: ReactNode };

/**
 * E3, E9: a routed request's header row, for a question and a secret request alike: who it waits for and when it moves
 * on ("For ops · to Ana in 4:12"), then `children`, and for anyone else who may see it, that they can read but not answer.
 */
export function RouteLine({ route, words, paused = false, children }: Props) {
  const eligible = useMayAnswer(route);
  const waitsFor = words?.waitsFor?.join(', ') ?? waitsForText(route);
  const nextTo = words?.next?.join(', ');
  // E9: a next step the request expires before gets no countdown, only its "not reached".
  const nextUnreached = words !== undefined && !words.next && (words.unreached?.length ?? 0) > 0;
  return (
    <div className="rt-row" role="group" aria-label="Routing">
      <span className="rt-for">
        For {waitsFor}
        {route.nextAtMs !== undefined && !nextUnreached && (
          <>
            {nextTo ? ` · to ${nextTo} ` : ' · next step '}
            <RouteCountdown atMs={route.nextAtMs} paused={paused} />
          </>
        )}
        {words?.unreached?.map((label, i) => (
          <span key={i} className="rt-unreached">
            {` · ${label}: not reached before it expires`}
          </span>
        ))}
      </span>
      {children}
      {!eligible && <span className="rt-readonly">Waiting for {waitsFor}: you can read it but not answer</span>}
    </div>
  );
}
