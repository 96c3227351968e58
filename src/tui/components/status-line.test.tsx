import { Box } from 'ink';
import { render } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { StatusLine } from './status-line.tsx';

let ink: ReturnType<typeof render> | undefined;
afterEach(() => ink?.unmount());

describe('the status line on a narrow terminal', () => {
  it('[V1] at 40 columns it stays one line: the connection state whole, a long session title cut', () => {
    for (const [connection, word] of [['connected', '● Connected'], ['reconnecting', '● Reconnecting…']] as const) {
      ink = render(
        <Box width={40}>
          <StatusLine title="please deploy the new release of the billing service now" connection={connection} local />
        </Box>,
      );
      const lines = ink.lastFrame()!.split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/^askdock \(local\) · please/);
      expect(lines[0].endsWith(word)).toBe(true);
      ink.unmount();
    }
  });
});
