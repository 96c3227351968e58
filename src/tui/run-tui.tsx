import { render } from 'ink';
import type { GatewayClient } from '../client/client.ts';
import { AskdockError } from '../protocol/index.ts';
import { TuiApp } from './app.tsx';
import { TuiActions } from './state/actions.ts';
import { openOnConnect } from './state/open-on-connect.ts';
import { bindClient } from './state/sync.ts';
import { createTuiStore } from './state/tui-store.ts';

export type RunTuiOptions = {
  client: GatewayClient;
  sessionKey?: string;
  local?: boolean;
  stdin?: NodeJS.ReadStream;
  stdout?: NodeJS.WriteStream;
};

// The alternate screen: the shell's own screen comes back, as it was, when the TUI ends (V1).
const ENTER = '\x1b[?1049h\x1b[H\x1b[2J';
const LEAVE = '\x1b[?25h\x1b[?1049l';

/** Runs the terminal client until /quit, Ctrl+C or a refused token; resolves with the error that ended it, if any. */
export async function runTui(opts: RunTuiOptions): Promise<Error | undefined> {
  const stdout = opts.stdout ?? process.stdout;
  const stdin = opts.stdin ?? process.stdin;
  const store = createTuiStore();
  let fatal: Error | undefined;
  let quit = () => undefined as void;
  const actions = new TuiActions(opts.client, store, () => quit());
  const onConnect = openOnConnect(
    {
      openInitial: (key) => actions.openInitial(key),
      reload: () => actions.reload(),
      hasSession: () => store.getState().sessionKey !== null,
      failed: (err) => actions.flash(`Could not open a session: ${err instanceof Error ? err.message : String(err)}`, 'error'),
    },
    opts.sessionKey,
  );
  const unbind = bindClient(opts.client, store, onConnect);
  stdout.write(ENTER);
  const restore = () => stdout.write(LEAVE);
  process.once('exit', restore);
  const ink = render(<TuiApp store={store} actions={actions} local={opts.local} />, { stdout, stdin, exitOnCtrlC: true, patchConsole: true });
  quit = () => ink.unmount();
  const onSignal = () => ink.unmount();
  process.once('SIGTERM', onSignal);
  process.once('SIGHUP', onSignal);
  opts.client.start().catch((err: unknown) => {
    // A refused token or version cannot get better by retrying: say so after the screen is restored.
    if (err instanceof AskdockError && err.code === 'UNAVAILABLE') return;
    fatal = err instanceof Error ? err : new Error(String(err));
    ink.unmount();
  });
  try {
    await ink.waitUntilExit();
  } finally {
    process.off('SIGTERM', onSignal);
    process.off('SIGHUP', onSignal);
    unbind();
    opts.client.close();
    restore();
    process.off('exit', restore);
  }
  return fatal;
}
