import { Box, Text, useInput } from 'ink';
import { useRef, useState } from 'react';
import type { Session } from '../../protocol/index.ts';

type Props = { sessions: Session[]; openKey: string | null; onPick: (key: string) => void; onCancel: () => void };

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
  return (
    <Box flexDirection="column" borderStyle="round" borderColor="cyan" paddingX={1}>
      <Text bold>Sessions</Text>
      {rows.length === 0 ? <Text dimColor>No sessions yet: /new starts one</Text> : null}
      {rows.slice(0, 15).map((s, i) => (
        <Text key={s.key}>
          <Text color="cyan">{i === cursor ? '› ' : '  '}</Text>
          <Text bold={i === cursor}>{s.title || s.key}</Text>
          {s.key === openKey ? <Text dimColor> (open)</Text> : null}
          {s.pendingQuestions > 0 ? <Text color="yellow"> · {s.pendingQuestions} pending</Text> : null}
        </Text>
      ))}
      <Text dimColor>↑↓ move · Enter open · Esc back</Text>
    </Box>
  );
}
