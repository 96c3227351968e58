import { Box, Text } from 'ink';
import type { ItemDraft } from '../../answers/collect.ts';
import type { QuestionRecord } from '../../protocol/index.ts';
import { terminalLine } from '../../lib/terminal-text.ts';
import { promptControl } from '../prompt/kind-rows.ts';

/** `readOnly` (E3): the options alone, no highlight, no Other… and no Skip: someone it does not wait for only reads them. */
type Props = { item: QuestionRecord['questions'][number]; draft: ItemDraft; cursor: number; editingOther: boolean; readOnly?: boolean };

/** The highlight at the start of a row a person can take with Enter. */
export const Pointer = ({ on }: { on: boolean }) => <Text color="cyan">{on ? '› ' : '  '}</Text>;

/** V2 rows: `1. Staging (Recommended)` with its description dimmed beneath, `[x]` on multi-select, then `Other…` and `Skip`. */
export function OptionRows({ item, draft, cursor: at, editingOther, readOnly = false }: Props) {
  const control = promptControl(item);
  const cursor = readOnly ? -1 : at;
  const rows = control.rows(item);
  const n = rows.length;
  const several = control.toggles(item);
  return (
    <Box flexDirection="column">
      {rows.map((option, i) => {
        const chosen = draft.chosen.includes(option.value);
        const box = several ? (chosen ? '[x] ' : '[ ] ') : '';
        return (
          <Box key={option.label} flexDirection="column">
            <Text>
              <Pointer on={cursor === i && !editingOther} />
              <Text color={chosen ? 'green' : undefined} bold={cursor === i}>
                {box}
                {i + 1}. {terminalLine(option.label)}
              </Text>
            </Text>
            {/* A description that wraps keeps its indent under the label (narrow terminals). */}
            {option.description ? (
              <Box paddingLeft={several ? 9 : 5}>
                <Text dimColor>{terminalLine(option.description)}</Text>
              </Box>
            ) : null}
          </Box>
        );
      })}
      {readOnly ? null : (
        <>
          <Text>
            <Pointer on={cursor === n || editingOther} />
            <Text bold={cursor === n}>{control.entry}</Text>
            {!editingOther && draft.other ? <Text color="green"> {terminalLine(draft.other)}</Text> : null}
          </Text>
          <Text>
            <Pointer on={cursor === n + 1 && !editingOther} />
            <Text bold={cursor === n + 1}>Skip</Text>
          </Text>
        </>
      )}
    </Box>
  );
}
