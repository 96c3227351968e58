import { watchRouteWords } from './route-words.ts';
import type { GatewayClient } from '../../client/client.ts';
import type { ChatMessage, HelloOk, QuestionRecord, Session } from '../../protocol/index.ts';
import { reconcile, type Connection, type TuiState, type TuiStore } from './tui-store.ts';

/** Applies a change, then keeps view and current request consistent (tui-store `reconcile`). */
export function update(store: TuiStore, fn: (s: TuiState) => Partial<TuiState>): void {
  store.setState((s) => {
    const next = { ...s, ...fn(s) };
    return { ...next, ...reconcile(next) };
  });
}

const upsertBy = <T>(list: T[], item: T, same: (a: T) => boolean, order: (a: T, b: T) => number): T[] => {
  const i = list.findIndex(same);
  const out = i < 0 ? [...list, item] : list.map((x, j) => (j === i ? item : x));
  return i < 0 ? out.sort(order) : out;
};

export const withMessage = (s: TuiState, m: ChatMessage): Partial<TuiState> => ({
  messages: { ...s.messages, [m.sessionKey]: upsertBy(s.messages[m.sessionKey] ?? [], m, (x) => x.id === m.id, (a, b) => a.seq - b.seq) },
});

export const withSession = (s: TuiState, session: Session): Partial<TuiState> => ({
  sessions: upsertBy(s.sessions, session, (x) => x.key === session.key, (a, b) => a.createdAtMs - b.createdAtMs),
});

/** A record as the gateway now has it; the time it ended is noted for the transcript (V5). */
export function withQuestion(s: TuiState, q: QuestionRecord, now = Date.now()): Partial<TuiState> {
  // An ended question never turns pending again: a list fetched before it ended may arrive after its event.
  if (q.status === 'pending' && s.questions[q.id] && s.questions[q.id].status !== 'pending') return {};
  const patch: Partial<TuiState> = { questions: { ...s.questions, [q.id]: q } };
  if (q.status === 'pending') patch.seenPending = { ...s.seenPending, [q.id]: true };
  else if (s.endedAtMs[q.id] === undefined) patch.endedAtMs = { ...s.endedAtMs, [q.id]: q.resolvedBy?.atMs ?? now };
  return patch;
}

/**
 * E2: a question that reaches this person outside the open session still shows on this screen: where it waits, and
 * how to get there. Null for one of the open session (its prompt opens) or one already known.
 */
export function arrivedElsewhere(s: Pick<TuiState, 'sessionKey' | 'sessions' | 'questions'>, q: QuestionRecord): string | null {
  if (q.status !== 'pending' || q.sessionKey === s.sessionKey || s.questions[q.id]) return null;
  // Still starting: the session being opened is not known yet, and its own questions open their prompt.
  if (s.sessionKey === null && q.sessionKey !== undefined) return null;
  if (q.sessionKey === undefined) return `New question outside any session (${q.questions[0]?.header ?? 'question'}): answer it in the Control UI's Inbox`;
  const session = s.sessions.find((x) => x.key === q.sessionKey);
  return `New question in ${session?.title || q.sessionKey} (${q.questions[0]?.header ?? 'question'}): /sessions to open it`;
}

/** A question.requested: kept, told where it waits when elsewhere, and put on screen when it takes priority. */
export function questionArrived(s: TuiState, q: QuestionRecord): Partial<TuiState> {
  const elsewhere = arrivedElsewhere(s, q);
  // An error on screen ("Not answered: …") stays until the person has read it: a notice never replaces it.
  const told = elsewhere && s.flash?.tone !== 'error' ? { flash: { text: elsewhere, tone: 'warn' as const } } : {};
  const patch: Partial<TuiState> = { ...withQuestion(s, q), ...told };
  const shown = s.requestId ? s.questions[s.requestId] : undefined;
  // A new blocking question of the open session takes priority over an async one on screen (U6).
  const takes = q.mode === 'blocking' && q.sessionKey === s.sessionKey && shown?.mode !== 'blocking';
  return takes ? { ...patch, requestId: q.id } : patch;
}

const connectionOf: Record<string, Connection> = {
  connecting: 'connecting',
  connected: 'connected',
  reconnecting: 'reconnecting',
  offline: 'reconnecting',
  closed: 'closed',
};

/** Loads one session's messages and questions (on open, after a reconnect, on a switch). */
export async function loadSession(client: GatewayClient, store: TuiStore, sessionKey: string): Promise<void> {
  const [history, list] = await Promise.all([
    client.request('chat.history', { sessionKey, limit: 200 }),
    client.request('question.list', { sessionKey }).catch(() => ({ questions: [] as QuestionRecord[] })),
  ]);
  update(store, (s) => {
    let next: TuiState = { ...s, messages: { ...s.messages, [sessionKey]: s.messages[sessionKey] ?? [] } };
    for (const m of history.messages) next = { ...next, ...withMessage(next, m) };
    for (const q of list.questions) next = { ...next, ...withQuestion(next, q, q.resolvedBy?.atMs ?? q.expiresAtMs ?? q.createdAtMs) };
    return next;
  });
}

/** Feeds the store from the shared client: the hello-ok snapshot on every (re)connect, then events (V6). */
export function bindClient(client: GatewayClient, store: TuiStore, onHello: (hello: HelloOk) => void): () => void {
  const offs = [
    client.onState((st) => update(store, () => ({ connection: connectionOf[st.status] ?? 'reconnecting' }))),
    client.onHello((hello) => {
      update(store, (s) => {
        let next: TuiState = { ...s, identity: hello.auth.identity, scopes: hello.auth.scopes, sessions: [...hello.snapshot.sessions] };
        for (const q of hello.snapshot.pendingQuestions) next = { ...next, ...withQuestion(next, q) };
        // K1: the snapshot lists what is pending now; anything else heard before has ended.
        next = { ...next, secrets: Object.fromEntries((hello.snapshot.pendingSecrets ?? []).map((r) => [r.id, r])) };
        return next;
      });
      // Records pending here but missing from the snapshot ended while we were away: fetch how.
      const pendingIds = new Set(hello.snapshot.pendingQuestions.map((q) => q.id));
      const stale = Object.values(store.getState().questions).filter((q) => q.status === 'pending' && !pendingIds.has(q.id));
      for (const q of stale) {
        void client.request('question.get', { id: q.id }).then(
          (r) => update(store, (s) => withQuestion(s, r.question)),
          () => update(store, (s) => withQuestion(s, { ...q, status: 'cancelled' })),
        );
      }
      onHello(hello);
    }),
    client.on('chat', (p) => update(store, (s) => (s.messages[p.sessionKey] ? withMessage(s, p.message) : {}))),
    client.on('session.updated', (p) => update(store, (s) => withSession(s, p.session))),
    client.on('question.requested', (p) => update(store, (s) => questionArrived(s, p.question))),
    client.on('question.resolved', (p) =>
      update(store, (s) => {
        const q = s.questions[p.id];
        if (!q) return {};
        const { id: _id, sessionKey: _key, ...outcome } = p;
        return withQuestion(s, { ...q, ...outcome });
      }),
    ),
    // E11: a routed question's route (a step ran, someone is on it, an approval counted) reaches the prompt's header.
    client.on('question.routed', (p) =>
      update(store, (s) => (s.questions[p.id] ? { questions: { ...s.questions, [p.id]: { ...s.questions[p.id], route: p.route } } } : {})),
    ),
    watchRouteWords(client, store),
    client.on('secret.requested', (p) => update(store, (s) => ({ secrets: { ...s.secrets, [p.request.id]: p.request } }))),
    client.on('secret.resolved', (p) =>
      update(store, (s) => (s.secrets[p.id] ? { secrets: { ...s.secrets, [p.id]: { ...s.secrets[p.id], status: p.status } } } : {})),
    ),
    client.on('question.retired', (p) =>
      update(store, (s) => {
        const q = s.questions[p.id];
        return q ? { questions: { ...s.questions, [q.id]: { ...q, retiredAtMs: p.retiredAtMs ?? Date.now() } } } : {};
      }),
    ),
  ];
  return () => offs.forEach((off) => off());
}
