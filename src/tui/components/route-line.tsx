import { Text } from 'ink';
import type { RouteState } from '../../protocol/routing.ts';
import { ackText, formatCountdown, quorumText, waitsForText } from '../../lib/route-text.ts';
import { terminalLine } from '../../lib/terminal-text.ts';
import { useSecondClock } from './time-left.tsx';

/** E4, E5, E9: who a routed question waits for and when it moves on, who is on it, the quorum so far; `a` acknowledges. */
export function RouteLine({ route, now = Date.now }: { route: RouteState; now?: () => number }) {
  const at = useSecondClock(now);
  const acked = ackText(route, at);
  const quorum = quorumText(route);
  const next = route.nextAtMs !== undefined && !acked ? ` · next step in ${formatCountdown(route.nextAtMs - at)}` : '';
  return (
    <Text>
      <Text color="magenta">For {terminalLine(waitsForText(route))}</Text>
      <Text dimColor>{next}</Text>
      {acked ? <Text color="green"> · {terminalLine(acked)}</Text> : null}
      {quorum ? <Text> · {terminalLine(quorum)}</Text> : null}
      {!acked ? <Text dimColor> · a: I'm on it</Text> : null}
    </Text>
  );
}
