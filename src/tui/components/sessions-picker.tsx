import { Box, Text, useInput } from 'ink';
import { useRef, useState } from 'react';
import type { Session } from '../../protocol/index.ts';
import { terminalLine } from '../../lib/terminal-text.ts';

type Props = { sessions: Session[]; openKey: string | null; onPick: (key: string) => void; onCancel: () => void };

/** Rows shown at once; the list scrolls to keep the cursor's row among them. */
export const PICKER_ROWS = 15;

/** The first row shown: the window follows the cursor, which sits on its last row when moving down past it. */
export function pickerWindowStart(cursor: number, count: number, size = PICKER_ROWS): number {
  if (count <= size) return 0;
  return Math.min(Math.max(0, cursor - size + 1), count - size);
}

/** V1 `/sessions`: newest first, ↑/↓ and Enter; Esc goes back. */
export function SessionsPicker({ sessions, openKey, onPick, onCancel }: Props) {
  const rows = [...sessions].sort((a, b) => (b.lastMessageAtMs ?? b.createdAtMs) - (a.lastMessageAtMs ?? a.createdAtMs));
  const [cursor, setCursorState] = useState(Math.max(0, rows.findIndex((s) => s.key === openKey)));
  // Keys of one burst arrive before the next render: Enter must see the row the arrows just moved to.
  const at = useRef(cursor);
  const setCursor = (n: number) => {
    at.current = n;
    setCursorState(n);
  };
  useInput((_input, key) => {
    const n = Math.max(1, rows.length);
    if (key.escape) return onCancel();
    if (key.upArrow) return setCursor((at.current + n - 1) % n);
    if (key.downArrow) return setCursor((at.current + 1) % n);
    if (key.return && rows[at.current]) return onPick(rows[at.current].key);
  });
  const start = pickerWindowStart(cursor, rows.length);
  return (
    <Box flexDirection="column" borderStyle="round" borderColor="cyan" paddingX={1}>
      <Text bold>Sessions</Text>
      {rows.length === 0 ? <Text dimColor>No sessions yet: /new starts one</Text> : null}
      {start > 0 ? <Text dimColor>  ↑ {start} more</Text> : null}
      {rows.slice(start, start + PICKER_ROWS).map((s, j) => {
        const i = start + j;
        return (
          <Text key={s.key}>
            <Text color="cyan">{i === cursor ? '› ' : '  '}</Text>
            <Text bold={i === cursor}>{terminalLine(s.title || s.key)}</Text>
            {s.key === openKey ? <Text dimColor> (open)</Text> : null}
            {s.pendingQuestions > 0 ? <Text color="yellow"> · {s.pendingQuestions} pending</Text> : null}
          </Text>
        );
      })}
      {start + PICKER_ROWS < rows.length ? <Text dimColor>  ↓ {rows.length - start - PICKER_ROWS} more</Text> : null}
      <Text dimColor>↑↓ move · Enter open · Esc back</Text>
    </Box>
  );
}
