import { Box, Text } from 'ink';
import { TextInput } from './text-input.tsx';

type Props = {
  value: string;
  onChange: (value: string) => void;
  onSubmit: (value: string) => void;
  /** Pending requests while the prompt is put aside (V4). */
  pending: number;
  /** K1: the secret the agent waits for in this session, if any. */
  secretName?: string;
  active: boolean;
};

/** V1 composer, one line; V4 says when questions wait and how to reopen them. */
export function Composer({ value, onChange, onSubmit, pending, secretName, active }: Props) {
  return (
    <Box flexDirection="column">
      {pending > 0 ? (
        <Text color="yellow">
          {pending} question{pending > 1 ? 's' : ''} pending · /question to answer
        </Text>
      ) : null}
      {secretName ? <Text color="magenta">The agent asks for the secret {secretName} · /secret to provide it</Text> : null}
      <Box borderStyle="round" borderColor="gray" paddingX={1}>
        <Text color="cyan">› </Text>
        <TextInput
          value={value}
          onChange={onChange}
          onSubmit={onSubmit}
          active={active}
          placeholder={pending > 0 ? 'a reply answers the question · /question opens it' : 'Message · /new /sessions /question /quit'}
        />
      </Box>
    </Box>
  );
}
