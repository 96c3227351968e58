import { Box, Text } from 'ink';
import type { Connection } from '../state/tui-store.ts';
import { terminalLine } from '../../lib/terminal-text.ts';

const WORDS: Record<Connection, { text: string; color: string }> = {
  connecting: { text: 'Connecting…', color: 'yellow' },
  connected: { text: 'Connected', color: 'green' },
  reconnecting: { text: 'Reconnecting…', color: 'yellow' },
  closed: { text: 'Disconnected', color: 'red' },
};

/** V1: the open session and the connection state, one line at any width: a long title is cut, the state never. */
export function StatusLine({ title, connection, local }: { title: string; connection: Connection; local?: boolean }) {
  const word = WORDS[connection];
  return (
    <Box justifyContent="space-between" flexShrink={0} columnGap={1}>
      <Box flexShrink={1}>
        <Text wrap="truncate-end">
          <Text bold color="cyan">askdock</Text>
          {local ? <Text dimColor> (local)</Text> : null}
          <Text dimColor> · </Text>
          <Text>{terminalLine(title)}</Text>
        </Text>
      </Box>
      <Box flexShrink={0}>
        <Text color={word.color}>● {word.text}</Text>
      </Box>
    </Box>
  );
}
