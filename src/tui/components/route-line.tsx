import { Text } from 'ink';
import type { RouteState } from '../../protocol/routing.ts';
import { ackText, formatCountdown, quorumText, waitsForText } from '../../lib/route-text.ts';
import { terminalLine } from '../../lib/terminal-text.ts';
import type { RouteWords } from '../state/route-words.ts';
import { useSecondClock } from './time-left.tsx';

/** The countdown's words: "to ops in 4:12" (E9), or "next step in 4:12" before the gateway's words came. */
function nextText(route: RouteState, words: RouteWords | undefined, at: number): string {
  if (route.nextAtMs === undefined) return '';
  if (words && !words.next && words.unreached?.length) return '';
  const to = words?.next?.length ? `to ${words.next.join(', ')}` : 'next step';
  return ` · ${to} in ${formatCountdown(route.nextAtMs - at)}`;
}

/**
 * E4, E5, E9: who a routed question waits for (by display name once routing.status has said) and when it moves on,
 * the steps it expires before, who is on it, the quorum so far; `a` acknowledges. Someone it does not wait for (E3)
 * reads that they can read it but not answer, as in the Control UI.
 */
type Props = { route: RouteState; words?: RouteWords; now?: () => number; mayAnswer?: boolean };

export function RouteLine({ route, words, now = Date.now, mayAnswer = true }: Props) {
  const at = useSecondClock(now);
  const acked = ackText(route, at);
  const quorum = quorumText(route);
  const next = acked ? '' : nextText(route, words, at);
  const unreached = (words?.unreached ?? []).map((label) => ` · ${label}: not reached before it expires`).join('');
  return (
    <Text>
      <Text color="magenta">For {terminalLine(words?.waitsFor?.join(', ') ?? waitsForText(route))}</Text>
      <Text dimColor>{terminalLine(next + unreached)}</Text>
      {acked ? <Text color="green"> · {terminalLine(acked)}</Text> : null}
      {quorum ? <Text> · {terminalLine(quorum)}</Text> : null}
      {!mayAnswer ? <Text color="yellow"> · you can read it but not answer</Text> : !acked ? <Text dimColor> · a: I'm on it</Text> : null}
    </Text>
  );
}
