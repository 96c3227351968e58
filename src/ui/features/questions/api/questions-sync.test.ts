// @vitest-environment jsdom
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { oneOf } from '../../../../testing/question-items.ts';
import { QueryClient } from '@tanstack/react-query';
import type { GatewayClient } from '../../../../client/client.ts';
import { useDraftsStore } from '../stores/drafts.ts';
import { draftChangesReady } from '../stores/later-drafts.ts';
import { attachQuestionsSync } from './questions-sync.ts';

/** Only what the sync subscribes to: its event handlers, which the test calls as the socket would. */
function socketDouble() {
  // Every listener of an event hears it, as on the real client (the routing sync listens beside the questions').
  const handlers = new Map<string, Set<(payload: unknown) => void>>();
  const on = (event: string, fn: (payload: unknown) => void) => {
    const set = handlers.get(event) ?? handlers.set(event, new Set()).get(event)!;
    set.add(fn);
    return () => void set.delete(fn);
  };
  const client = { hello: null, onHello: () => () => {}, on };
  const emit = (event: string, payload: unknown) => handlers.get(event)?.forEach((fn) => fn(payload));
  return { client: client as unknown as GatewayClient, emit };
}

const draft = () => useDraftsStore.getState().drafts.q1;

describe('the questions cache and drafts fed by the socket', () => {
  // The app connects (and events arrive) only once the drafts' code is in.
  beforeAll(() => draftChangesReady);
  let frames: FrameRequestCallback[];
  beforeEach(() => {
    vi.useFakeTimers();
    frames = [];
    vi.stubGlobal('requestAnimationFrame', (cb: FrameRequestCallback) => frames.push(cb));
    localStorage.clear();
    useDraftsStore.setState({ drafts: {}, sent: {} });
    useDraftsStore.getState().actions.otherTextChanged('q1', oneOf('env'), 'half typed');
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('[U11] a question resolved elsewhere loses its draft once the next frame is out', () => {
    const { client, emit } = socketDouble();
    const detach = attachQuestionsSync(client, new QueryClient());
    emit('question.resolved', { id: 'q1', status: 'answered' });
    expect(draft()).toBeDefined();
    frames.shift()!(0);
    vi.advanceTimersByTime(0);
    expect(draft()).toBeUndefined();
    detach();
  });

  it('[U11] a tab closed before that frame keeps no draft of it in storage', () => {
    const { client, emit } = socketDouble();
    const detach = attachQuestionsSync(client, new QueryClient());
    emit('question.resolved', { id: 'q1', status: 'answered' });
    dispatchEvent(new Event('pagehide'));
    expect(draft()).toBeUndefined();
    expect(localStorage.getItem('askdock.question-drafts')).not.toContain('half typed');
    detach();
  });

  it('[U11] a question still pending keeps its draft', () => {
    const { client, emit } = socketDouble();
    const detach = attachQuestionsSync(client, new QueryClient());
    emit('question.resolved', { id: 'q1', status: 'pending' });
    dispatchEvent(new Event('pagehide'));
    frames.shift()?.(0);
    vi.advanceTimersByTime(200);
    expect(draft()).toBeDefined();
    detach();
  });
});
