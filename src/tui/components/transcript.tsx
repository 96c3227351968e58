import { Box, Text } from 'ink';
import type { TranscriptRow } from '../state/transcript-rows.ts';
import { terminalLine, terminalText } from '../../lib/terminal-text.ts';

const WHO = { you: { label: 'you', color: 'cyan' }, agent: { label: 'agent', color: 'magenta' }, system: { label: 'system', color: 'gray' } } as const;

function Row({ row }: { row: TranscriptRow }) {
  // Rows keep their height: a full transcript clips its oldest rows at the top, it never squeezes a row (V1).
  if (row.who === 'notice')
    return (
      // One paragraph: on a narrow terminal the notice and its detail wrap as text, never into a sliver of a column.
      <Box flexShrink={0}>
        <Text wrap="wrap">
          <Text color={row.ok ? 'green' : 'yellow'}>  {terminalLine(row.text)}</Text>
          {row.detail ? <Text dimColor>{`  — ${terminalLine(row.detail)}`}</Text> : null}
        </Text>
      </Box>
    );
  // G6: an approval decided without a question, or answered: quiet, one line, no author column.
  if (row.who === 'decision')
    return (
      <Box flexShrink={0}>
        <Text dimColor wrap="wrap">{`  ${terminalLine(row.text)}`}</Text>
      </Box>
    );
  const who = WHO[row.who];
  return (
    <Box flexShrink={0}>
      <Box width={7} flexShrink={0}>
        <Text color={who.color} bold>
          {who.label}
        </Text>
      </Box>
      <Text wrap="wrap">{terminalText(row.text, { tabSize: 4 })}</Text>
    </Box>
  );
}

/** V1: the open session's transcript; the newest rows stay in view, older ones scroll off the top. */
export function Transcript({ rows, empty }: { rows: TranscriptRow[]; empty: string }) {
  return (
    <Box flexDirection="column" flexGrow={1} flexShrink={1} justifyContent="flex-end" overflow="hidden">
      {rows.length === 0 ? <Text dimColor>{empty}</Text> : null}
      {rows.slice(-200).map((row) => (
        <Row key={row.key} row={row} />
      ))}
    </Box>
  );
}
