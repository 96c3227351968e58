import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect } from 'vitest';
import { AskdockError, type QuestionItemInput, type Scope } from '../protocol/index.ts';
import type { GatewayConfig } from '../gateway/config.ts';
import { startGateway, type GatewayOptions, type RunningGateway } from '../gateway/gateway.ts';
import { createMemoryStore } from '../gateway/store/memory.ts';
import { TestClient } from './ws-client.ts';
import { memoryLogger } from '../gateway/infra/logger.ts';

/** One identity per row of the visibility matrix (A2, A3). */
export const WHO = {
  admin: { role: 'operator', scopes: ['operator.admin'] },
  questions: { role: 'operator', scopes: ['operator.questions'] },
  guest: { role: 'operator', scopes: ['operator.sessions.write'] },
  guest2: { role: 'operator', scopes: ['operator.sessions.write'] },
  reader: { role: 'operator', scopes: ['operator.read'] },
  writer: { role: 'operator', scopes: ['operator.write'] },
  agent: { role: 'agent', scopes: ['agent.run'] },
  agent2: { role: 'agent', scopes: ['agent.run'] },
} as const satisfies Record<string, { role: 'operator' | 'agent'; scopes: Scope[] }>;
export type Who = keyof typeof WHO;

export const tokenOf = (who: Who) => `token-of-${who}-0123456789`;
/** Every identity of testConfig, in the visibility matrix's order. */
export const EVERYONE = Object.keys(WHO) as Who[];

export const testConfig: GatewayConfig = {
  identities: Object.entries(WHO).map(([id, v]) => ({ id, token: tokenOf(id as Who), role: v.role, scopes: [...v.scopes] })),
};

/** The test identities plus `qreader`: every session read with operator.questions (operator.questions alone reads none). */
export const QREADER_TOKEN = 'token-of-qreader-0123456789';
/** Who, or configWithQuestionsReader's `qreader` (operator.read with operator.questions). */
export type Viewer = Who | 'qreader';
export const configWithQuestionsReader: GatewayConfig = {
  ...testConfig,
  identities: [...testConfig.identities, { id: 'qreader', token: QREADER_TOKEN, role: 'operator', scopes: ['operator.read', 'operator.questions'] }],
};

/** A valid single question; `n` varies the id so prompts differ. */
export function item(over: Partial<QuestionItemInput> = {}): QuestionItemInput {
  return {
    id: 'env',
    header: 'Environment',
    question: 'Where should it deploy?',
    options: [{ label: 'Staging' }, { label: 'Production' }],
    ...over,
  };
}

export type TestGateway = {
  gw: RunningGateway;
  dir: string;
  dbPath: string;
  clients: TestClient[];
  /** Opens a socket and completes the handshake as `who` (`qreader` needs configWithQuestionsReader). */
  connect(who: Viewer, extra?: Parameters<TestClient['connect']>[1]): Promise<TestClient>;
  /** Opens a socket without a handshake. */
  open(): Promise<TestClient>;
  logs: string[];
  /** Closes every client and the gateway, checks every frame received followed the protocol. */
  close(opts?: { keepDir?: boolean }): Promise<void>;
};

export async function startTestGateway(over: GatewayOptions & { memory?: boolean; dir?: string } = {}): Promise<TestGateway> {
  const dir = over.dir ?? mkdtempSync(join(tmpdir(), 'askdock-gw-'));
  const dbPath = join(dir, 'askdock.db');
  const { log, lines: logs } = memoryLogger();
  const { memory, dir: _dir, ...opts } = over;
  const gw = await startGateway({
    port: 0,
    config: testConfig,
    checkFrames: true,
    log,
    ...(memory ? { store: createMemoryStore() } : { dbPath }),
    uiDir: join(dir, 'no-ui'),
    // Fake clocks jump hours ahead; an hourly tick keeps those jumps cheap. Tick tests set their own.
    tickIntervalMs: 3_600_000,
    // Receipts are checked in src/gateway/audit/; elsewhere results are compared whole, without one.
    auditSigning: false,
    ...opts,
  });
  const clients: TestClient[] = [];
  const open = async () => {
    const c = await TestClient.open(gw.wsUrl);
    clients.push(c);
    return c;
  };
  return {
    gw,
    dir,
    dbPath,
    clients,
    logs,
    open,
    async connect(who, extra) {
      const c = await open();
      const res = await c.connect(who === 'qreader' ? QREADER_TOKEN : tokenOf(who), extra);
      if (!res.ok) throw new Error(`connect as ${who} failed: ${JSON.stringify(res.error)}`);
      return c;
    },
    async close(closeOpts) {
      for (const c of clients) c.close();
      await gw.close();
      if (memory) await gw.store.close();
      if (!closeOpts?.keepDir) rmSync(dir, { recursive: true, force: true });
      const problems = clients.flatMap((c) => c.problems);
      expect(problems, 'frames that break the protocol').toEqual([]);
      expect(logs.filter((l) => /breaks|failed/.test(l)), 'gateway errors').toEqual([]);
    },
  };
}

/** A connection per identity named, each through its handshake, one after the other. */
export async function connectEach<W extends Viewer>(t: TestGateway, who: readonly W[]): Promise<Record<W, TestClient>> {
  const c = {} as Record<W, TestClient>;
  for (const w of who) c[w] = await t.connect(w);
  return c;
}

/** A gateway with an admin, an agent (client id `agent-client`) and a session titled Work, the question tests' start. */
export async function startWithSession(opts: Parameters<typeof startTestGateway>[0] = {}) {
  const t = await startTestGateway(opts);
  const admin = await t.connect('admin');
  const agent = await t.connect('agent', { clientId: 'agent-client' });
  const { session } = await admin.call('sessions.create', { title: 'Work' });
  return { t, admin, agent, session };
}

export type GatewayPerTest = {
  /** The gateway the current test started last. */
  readonly t: TestGateway;
  start(over?: Parameters<typeof startTestGateway>[0]): Promise<TestGateway>;
  withSession(opts?: Parameters<typeof startTestGateway>[0]): ReturnType<typeof startWithSession>;
};

/**
 * For the tests of the calling file (or describe block): each gateway a test starts through this is closed after it,
 * unless the test closed it itself.
 */
export function gatewayPerTest(): GatewayPerTest {
  const started: TestGateway[] = [];
  afterEach(async () => {
    for (const g of started.slice().reverse()) await g.close();
  });
  const track = (g: TestGateway) => {
    const close = g.close;
    g.close = async (opts) => {
      const at = started.indexOf(g);
      if (at >= 0) started.splice(at, 1);
      await close(opts);
    };
    started.push(g);
    return g;
  };
  return {
    get t() {
      const last = started.at(-1);
      if (!last) throw new Error('gatewayPerTest: this test started no gateway');
      return last;
    },
    async start(over) {
      return track(await startTestGateway(over));
    },
    async withSession(opts) {
      const world = await startWithSession(opts);
      track(world.t);
      return world;
    },
  };
}

/** The AskdockError a call fails with; any other error is thrown again, and a call that succeeds fails the test. */
export async function failure(p: Promise<unknown>): Promise<AskdockError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof AskdockError) return err;
    throw err;
  }
  throw new Error('expected the call to fail');
}

/** 'ok' when the call succeeds, else the code of the AskdockError it fails with (any other error is thrown again). */
export async function outcome(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return 'ok';
  } catch (err) {
    if (err instanceof AskdockError) return err.code;
    throw err;
  }
}
