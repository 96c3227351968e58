import { render } from 'ink-testing-library';
import { createNodeClient } from '../client/node.ts';
import type { GatewayClient } from '../client/client.ts';
import { TuiApp } from '../tui/app.tsx';
import { TuiActions } from '../tui/state/actions.ts';
import { bindClient } from '../tui/state/sync.ts';
import { createTuiStore, type TuiStore } from '../tui/state/tui-store.ts';
import { item, startTestGateway, tokenOf, type TestGateway } from './gateway-harness.ts';
import type { TestClient } from './ws-client.ts';

/** Keys as a terminal sends them. */
export const KEY = { enter: '\r', esc: '\x1b', up: '\x1b[A', down: '\x1b[B', left: '\x1b[D', right: '\x1b[C', backspace: '\x7f' } as const;

/** The demo agent's deploy prompt, as tests ask it. */
export const ENV = item({
  options: [
    { label: 'Staging (Recommended)', description: 'Safe to try out; nobody depends on it.' },
    { label: 'Production', description: 'Live for every user.' },
  ],
});
export const NOTIFY = item({ id: 'notify', header: 'Notify', question: 'Who should I notify?', multiSelect: true, options: [{ label: 'Email' }, { label: 'Slack' }, { label: 'Pager' }] });

export type TuiHarness = {
  t: TestGateway;
  /** The person's TUI connection (mode `tui`, identity admin). */
  client: GatewayClient;
  /** An agent on its own socket; `ask` opens a run in the session and asks there. */
  agent: TestClient;
  /** Another operator, answering "elsewhere". */
  admin: TestClient;
  store: TuiStore;
  sessionKey: string;
  quits: number;
  screen(): string;
  press(...keys: string[]): Promise<void>;
  type(text: string): Promise<void>;
  waitFor(text: string | RegExp, timeoutMs?: number): Promise<string>;
  waitForNo(text: string | RegExp, timeoutMs?: number): Promise<string>;
  ask(questions?: unknown[], extra?: Record<string, unknown>): Promise<{ id: string; runId: string }>;
  close(): Promise<void>;
};

const settleFrame = () => new Promise((r) => setTimeout(r, 15));

/** A real gateway, the real TUI on the shared client, rendered by ink-testing-library. */
export async function startTui(opts: Parameters<typeof startTestGateway>[0] = {}): Promise<TuiHarness> {
  const t = await startTestGateway(opts);
  const admin = await t.connect('admin', { mode: 'ui' });
  const agent = await t.connect('agent', { mode: 'agent' });
  const { session } = await admin.call('sessions.create', { title: 'Deploys' });
  const client = createNodeClient({ url: t.gw.wsUrl, token: tokenOf('admin'), client: { name: 'tui-test', mode: 'tui' }, backoff: { initialMs: 50, maxMs: 200 } });
  const store = createTuiStore();
  const h = { quits: 0 } as TuiHarness;
  const actions = new TuiActions(client, store, () => h.quits++);
  let first = true;
  const unbind = bindClient(client, store, () => {
    void (first ? actions.openInitial(session.key) : actions.reload());
    first = false;
  });
  const ink = render(<TuiApp store={store} actions={actions} />);
  await client.start();
  const screen = () => ink.lastFrame() ?? '';
  const until = async (ok: () => boolean, what: string, timeoutMs: number) => {
    const end = Date.now() + timeoutMs;
    while (!ok()) {
      if (Date.now() > end) throw new Error(`timed out waiting for ${what}; the screen:\n${screen()}`);
      await new Promise((r) => setTimeout(r, 20));
    }
    return screen();
  };
  const has = (text: string | RegExp) => (typeof text === 'string' ? screen().includes(text) : text.test(screen()));
  Object.assign(h, {
    t,
    client,
    agent,
    admin,
    store,
    sessionKey: session.key,
    screen,
    async press(...keys: string[]) {
      for (const k of keys) {
        ink.stdin.write(k);
        await settleFrame();
      }
    },
    async type(text: string) {
      ink.stdin.write(text);
      await settleFrame();
    },
    // Generous bounds: a real gateway and Ink render late on a busy machine; a passing wait goes on at once.
    waitFor: (text: string | RegExp, timeoutMs = 15_000) => until(() => has(text), `"${text}"`, timeoutMs),
    waitForNo: (text: string | RegExp, timeoutMs = 15_000) => until(() => !has(text), `no "${text}"`, timeoutMs),
    async ask(questions: unknown[] = [ENV, NOTIFY], extra: Record<string, unknown> = {}) {
      const { runId } = await agent.call('run.start', { sessionKey: session.key });
      const { id } = await agent.call('question.request', { sessionKey: session.key, runId, questions: questions as never, ...extra });
      return { id, runId };
    },
    async close() {
      ink.unmount();
      unbind();
      client.close();
      await t.close();
    },
  });
  await h.waitFor('Connected');
  await until(() => store.getState().sessionKey === session.key, 'the session to open', 15_000);
  return h;
}
