import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { vi } from 'vitest';
import type { ConnectionState, ConnectionStatus, GatewayClient } from '../client/client.ts';
import type { EventName, EventPayload, QuestionRecord, Scope, SecretRequestRecord } from '../protocol/index.ts';
import { GatewayProvider } from '../ui/lib/gateway.tsx';
import { createOutbox, type Outbox } from '../ui/lib/outbox/outbox.ts';
import { createMemoryStorage } from '../ui/lib/outbox/storage.ts';
import { OutboxProvider } from '../ui/lib/outbox/use-outbox.ts';
import { useDraftsStore } from '../ui/features/questions/stores/drafts.ts';
import { questionsKey } from '../ui/features/questions/api/get-questions.ts';
import { QuestionsSync } from '../ui/features/questions/api/questions-sync.ts';
import { useDockUiStore } from '../ui/features/questions/stores/dock-ui.ts';
import { useSkipsStore } from '../ui/features/questions/stores/skips.ts';
import { forgetAdoptedHandoffs } from '../ui/features/questions/hooks/use-handoff-drafts.ts';
import './resize-observer.ts';
import { Listeners } from '../lib/listeners.ts';


type Handler = (payload: unknown, seq?: number) => void;
type RequestImpl = (method: string, params: Record<string, unknown>) => Promise<unknown>;

export type FakeClient = GatewayClient & {
  request: ReturnType<typeof vi.fn<RequestImpl>>;
  emit<E extends EventName>(event: E, payload: EventPayload<E>): void;
  /** Moves the connection to `status`, as a drop or a reconnect would. */
  setStatus(status: ConnectionStatus): void;
};

/** The token a fake client signs in with (scopes saved for it show before a hello, granted-scopes.ts). */
export const FAKE_TOKEN = 'fake-client-token-0123456789';

/**
 * Enough of a GatewayClient for component tests: requests are a mock, events are emitted by hand. `chat.send`
 * saves nothing but answers like the gateway (a message id, the same one again for the same key).
 */
export function fakeClient(identity = 'operator', status: ConnectionStatus = 'connected'): FakeClient {
  const handlers = new Map<string, Listeners<Parameters<Handler>>>();
  const stateHandlers = new Listeners<[ConnectionState]>();
  const sent = new Map<string, { messageId: string; seq: number }>();
  const request = vi.fn<RequestImpl>(async (method, params) => {
    if (method === 'question.resolve')
      return 'skip' in params ? { status: 'skipped' } : { status: 'answered', answers: params.answers };
    if (method === 'question.list') return { questions: [] };
    if (method === 'secret.list') return { requests: [] };
    if (method === 'secret.provide') return { status: 'skip' in params ? 'skipped' : 'stored', name: 'SECRET' };
    if (method === 'chat.history') return { messages: [], hasMore: false };
    if (method === 'chat.send') {
      const key = String(params.idempotencyKey);
      const first = sent.get(key);
      if (first) return { ...first, deduped: true };
      const result = { messageId: `m${sent.size + 1}`, seq: sent.size + 1 };
      sent.set(key, result);
      return { ...result, deduped: false };
    }
    throw new Error(`unexpected ${method}`);
  });
  const client = {
    options: { token: FAKE_TOKEN },
    request,
    hello: { auth: { identity, role: 'operator', scopes: ['operator.admin'] } },
    state: { status, attempt: 0 } as ConnectionState,
    on(event: string, handler: Handler) {
      if (!handlers.has(event)) handlers.set(event, new Listeners());
      return handlers.get(event)!.add(handler);
    },
    onHello: () => () => {},
    onState(handler: (s: ConnectionState) => void) {
      return stateHandlers.add(handler);
    },
    emit(event: string, payload: unknown) {
      handlers.get(event)?.emit(payload);
    },
    setStatus(next: ConnectionStatus) {
      client.state = { status: next, attempt: 0 };
      stateHandlers.emit(client.state);
    },
  };
  return client as unknown as FakeClient;
}

const NOW = Date.now();

export function deployRecord(over: Partial<QuestionRecord> = {}): QuestionRecord {
  return {
    id: 'q-deploy',
    sessionKey: 's1',
    askedBy: 'agent',
    mode: 'blocking',
    questions: [
      {
        id: 'env',
        header: 'Environment',
        question: 'Where should I deploy?',
        options: [
          { label: 'Staging (Recommended)', description: 'Safe to break' },
          { label: 'Production', description: 'Real users' },
        ],
      },
      {
        id: 'notify',
        header: 'Notify',
        question: 'Who should hear about it?',
        options: [{ label: 'Email' }, { label: 'Slack' }, { label: 'Pager' }],
        multiSelect: true,
      },
    ],
    createdAtMs: NOW,
    expiresAtMs: NOW + 300_000,
    status: 'pending',
    ...over,
  };
}

export function lunchRecord(over: Partial<QuestionRecord> = {}): QuestionRecord {
  return {
    id: 'q-lunch',
    sessionKey: 's1',
    askedBy: 'agent',
    mode: 'async',
    questions: [
      {
        id: 'lunch',
        header: 'Lunch',
        question: 'What should we order?',
        options: [{ label: 'Pizza (Recommended)' }, { label: 'Sushi' }, { label: 'Salad' }],
      },
    ],
    createdAtMs: NOW + 1,
    expiresAtMs: null,
    status: 'pending',
    ...over,
  };
}

const outboxes: Outbox[] = [];

export function resetStores() {
  localStorage.clear();
  sessionStorage.clear();
  useDraftsStore.setState({ drafts: {}, sent: {} });
  useDockUiStore.setState({ docks: {}, reopened: {}, focus: null });
  useSkipsStore.setState({ skipped: {} });
  forgetAdoptedHandoffs();
  for (const outbox of outboxes.splice(0)) outbox.dispose();
}

/** Providers as the app has them: query cache (seeded with `records`), gateway client, and an in-memory outbox. */
export function setup(records: QuestionRecord[], client: FakeClient = fakeClient(), outbox?: Outbox) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity, retry: false } } });
  queryClient.setQueryData(questionsKey, records);
  const box = outbox ?? createOutbox({ client, storage: createMemoryStorage(), onError: () => {} });
  outboxes.push(box);
  const wrap = (ui: ReactNode) => (
    <QueryClientProvider client={queryClient}>
      <GatewayProvider client={client}>
        <OutboxProvider outbox={box}>
          <QuestionsSync />
          {ui}
        </OutboxProvider>
      </GatewayProvider>
    </QueryClientProvider>
  );
  return { client, queryClient, outbox: box, wrap, render: (ui: ReactNode) => render(wrap(ui)) };
}

export const composer = <textarea aria-label="Message" />;

/** K1: a pending secret request of session s1, asked by the agent. */
export function secretRecord(over: Partial<SecretRequestRecord> = {}): SecretRequestRecord {
  return {
    id: 'k1',
    name: 'OPENAI_API_KEY',
    description: 'To call the API for the summary.',
    sessionKey: 's1',
    askedBy: 'agent',
    createdAtMs: Date.now(),
    expiresAtMs: Date.now() + 900_000,
    status: 'pending',
    ...over,
  };
}

/** Someone who may see secret requests (A3) and answer questions, but no admin. */
export function personClient(identity: string) {
  const client = fakeClient(identity);
  (client as { hello: unknown }).hello = { auth: { identity, role: 'operator', scopes: ['operator.questions'] } };
  return client;
}

/** A sign-in holding `scopes` only; `null`: the gateway has not said who it is yet (no hello). */
export function scopedClient(scopes: Scope[] | null, identity = 'pat') {
  const client = fakeClient(identity);
  (client as { hello: unknown }).hello = scopes && { auth: { identity, role: 'operator', scopes } };
  return client;
}
