import { Box, Text } from 'ink';
import { useState } from 'react';
import type { SecretRequestRecord } from '../../protocol/index.ts';
import { terminalLine, terminalText } from '../../lib/terminal-text.ts';
import { TextInput } from './text-input.tsx';

type Props = { request: SecretRequestRecord; onProvide: (value: string) => void; onClose: () => void };

/**
 * K1, W4: the masked field for a secret request. What is typed lives only in this component (never a draft, the
 * store or the transcript) and shows as dots; Enter stores it, Esc goes back to the composer and forgets it.
 */
export function SecretPrompt({ request, onProvide, onClose }: Props) {
  const [value, setValue] = useState('');
  return (
    <Box flexDirection="column" borderStyle="round" borderColor="magenta" paddingX={1}>
      <Text bold>Secret {terminalLine(request.name)}</Text>
      <Text>{terminalText(request.description, { tabSize: 4 })}</Text>
      <Box>
        <Text color="magenta">🔑 </Text>
        <TextInput
          value={value}
          mask
          breaksAsText
          onChange={setValue}
          onSubmit={(v) => (v.trim() ? onProvide(v) : undefined)}
          onEscape={onClose}
          placeholder="type or paste it · never shown, never kept"
        />
      </Box>
      <Text dimColor>Enter store it (encrypted; the agent gets only its name) · Esc composer</Text>
    </Box>
  );
}
