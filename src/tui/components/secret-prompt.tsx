import { Box, Text } from 'ink';
import { useRef, useState } from 'react';
import type { SecretRequestRecord } from '../../protocol/index.ts';
import { terminalLine, terminalText } from '../../lib/terminal-text.ts';
import { splitBurst } from './key-burst.ts';
import { Pointer } from './option-rows.tsx';
import { TextInput } from './text-input.tsx';
import { useKeys } from './use-keys.ts';

type Props = { request: SecretRequestRecord; onProvide: (value: string) => void; onSkip: () => void; onClose: () => void };

const HINT = {
  field: 'Enter store it (encrypted; agent gets only its name) · ↓ Skip · Esc composer',
  skip: 'Enter skip it: the agent gets no value · ↑ back to the field · Esc composer',
} as const;

/**
 * K1, W4: the masked field for a secret request. What is typed lives only in this component (never a draft, the
 * store or the transcript) and shows as dots; Enter stores it, Esc goes back to the composer and forgets it. Under
 * the field, `Skip` declines the request (K1 `skip`), as a question's Skip does (V2).
 */
export function SecretPrompt({ request, onProvide, onSkip, onClose }: Props) {
  const [value, setValue] = useState('');
  // One answer per prompt: the keys read before it is gone (`\r\x1b[A\r`, two Enters a few ms apart) send nothing more.
  const settled = useRef(false);
  const once = (act: () => void) => {
    if (settled.current) return;
    settled.current = true;
    act();
  };
  // Keys of one burst arrive before React renders again: the row the highlight is on lives in a ref.
  const row = useRef<'field' | 'skip'>('field');
  const [, rendered] = useState(0);
  const go = (to: 'field' | 'skip') => {
    row.current = to;
    rendered((n) => n + 1);
  };
  // A burst of Enters alone (`\r\r`: a key bounce, a script) still takes Skip; a burst with text in it is a paste,
  // whose line breaks are text (W4), never an Enter that declines the request.
  useKeys((input, key) => {
    const pasted = input.length > 1 && /[^\r\n]/.test(input);
    for (const { key: k } of splitBurst(input, key)) {
      if (k.downArrow) go('skip');
      else if (k.upArrow) go('field');
      else if (row.current === 'skip' && k.return && !pasted) return once(onSkip);
      else if (row.current === 'skip' && k.escape) return onClose();
    }
  });
  const onSkipRow = row.current === 'skip';
  return (
    <Box flexDirection="column" borderStyle="round" borderColor="magenta" paddingX={1}>
      <Text bold>Secret {terminalLine(request.name)}</Text>
      <Text>{terminalText(request.description, { tabSize: 4 })}</Text>
      <Box>
        <Pointer on={!onSkipRow} />
        <Text color="magenta">🔑 </Text>
        <TextInput
          value={value}
          mask
          breaksAsText
          // The field always listens and takes a key only while the highlight is on it (a ref, not the last drawing):
          // the keys of one read after ↑ (Enter, letters) reach it before React draws again; a key on Skip (a letter,
          // ←, Backspace, a paste) changes neither its value nor its cursor.
          owns={() => row.current === 'field'}
          onChange={setValue}
          onSubmit={(v) => (v.trim() ? once(() => onProvide(v)) : undefined)}
          onEscape={onClose}
          placeholder="type or paste it · never shown, never kept"
        />
      </Box>
      <Text>
        <Pointer on={onSkipRow} />
        <Text bold={onSkipRow}>Skip</Text>
      </Text>
      <Text dimColor>{HINT[row.current]}</Text>
    </Box>
  );
}
