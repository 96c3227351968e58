import type { RouteWords } from './route-words.ts';
import { createStore } from 'zustand/vanilla';
import type { ChatMessage, QuestionRecord, SecretRequestRecord, Session } from '../../protocol/index.ts';
import type { PromptDraft } from '../prompt/prompt-model.ts';
import { recordWithChoosableOffers } from '../../answers/kinds/approval-offers.ts';
import { mayAnswer } from '../../lib/route-text.ts';

export type Connection = 'connecting' | 'connected' | 'reconnecting' | 'closed';
export type View = 'composer' | 'prompt' | 'sessions' | 'secret';
export type Flash = { text: string; tone: 'error' | 'info' | 'warn' };

/**
 * What the terminal shows. Server data (sessions, messages, question records) is fed by socket events and
 * refetches; the rest (view, drafts, what this process answered) lives only as long as the process (V6).
 */
export type TuiState = {
  connection: Connection;
  identity: string | null;
  /** G5: this identity's scopes (from the hello): the approval offers it is shown; null until the first hello. */
  scopes: readonly string[] | null;
  sessions: Session[];
  sessionKey: string | null;
  messages: Record<string, ChatMessage[]>;
  questions: Record<string, QuestionRecord>;
  /** K1: secret requests this identity may see (never a value): W3 offers a credential-shaped message as a pending one. */
  secrets: Record<string, SecretRequestRecord>;
  /** E9: routed questions in words (routing.status): who each waits for and who is next, by display name. */
  routeWords: Record<string, RouteWords>;
  /** When this process saw a question end, for its place in the transcript. */
  endedAtMs: Record<string, number>;
  /** Questions this process answered (V5: the others read "Answered elsewhere"). */
  mine: Record<string, true>;
  /** Questions this process saw pending: an answer from elsewhere is only "elsewhere" for them. */
  seenPending: Record<string, true>;
  view: View;
  requestId: string | null;
  /** K1: the secret request `/secret`'s masked field shows, kept while it waits for this person (a newer one never swaps it mid-typing). */
  secretId: string | null;
  /** Prompts closed with Esc: they wait for `/question` instead of opening again by themselves (V4). */
  dismissed: Record<string, true>;
  drafts: Record<string, PromptDraft>;
  composerText: string;
  flash: Flash | null;
  /** W3: a reply held back until the person confirms its free text is no credential. */
  confirm: { warning: string; send: () => void; asSecret?: { name: string; send: () => void } } | null;
};

export const initialState = (): TuiState => ({
  connection: 'connecting',
  identity: null,
  scopes: null,
  sessions: [],
  sessionKey: null,
  messages: {},
  questions: {},
  secrets: {},
  routeWords: {},
  endedAtMs: {},
  mine: {},
  seenPending: {},
  view: 'composer',
  requestId: null,
  secretId: null,
  dismissed: {},
  drafts: {},
  composerText: '',
  flash: null,
  confirm: null,
});

export type TuiStore = ReturnType<typeof createTuiStore>;
export const createTuiStore = () => createStore<TuiState>()(() => initialState());

/** The open session's pending requests, oldest first, blocking ones before async ones (a blocking one takes priority). */
export function pendingRequests(s: Pick<TuiState, 'questions' | 'sessionKey'>): QuestionRecord[] {
  return Object.values(s.questions)
    .filter((q) => q.status === 'pending' && q.retiredAtMs === undefined && q.sessionKey !== undefined && q.sessionKey === s.sessionKey)
    .sort((a, b) => (a.mode === b.mode ? a.createdAtMs - b.createdAtMs : a.mode === 'blocking' ? -1 : 1));
}

/** The open session's pending secret requests, the newest first, whoever may provide them. */
export function sessionSecrets(s: Pick<TuiState, 'secrets' | 'sessionKey'>): SecretRequestRecord[] {
  return Object.values(s.secrets)
    .filter((r) => r.status === 'pending' && r.sessionKey !== undefined && r.sessionKey === s.sessionKey)
    .sort((a, b) => b.createdAtMs - a.createdAtMs);
}

/** W3, W4, E3: the open session's pending secret request this identity may provide (as a question it may answer), the newest first. */
export function pendingSecret(s: Pick<TuiState, 'secrets' | 'sessionKey' | 'identity' | 'scopes'>): SecretRequestRecord | undefined {
  return sessionSecrets(s).find((r) => mayAnswerHere(s, r));
}

/** The secret request the masked field shows: the one it opened on while that still waits for this person, else the newest. */
export function shownSecret(s: Pick<TuiState, 'secrets' | 'sessionKey' | 'identity' | 'scopes' | 'secretId'>): SecretRequestRecord | undefined {
  const kept = s.secretId ? s.secrets[s.secretId] : undefined;
  if (kept && kept.status === 'pending' && kept.sessionKey === s.sessionKey && mayAnswerHere(s, kept)) return kept;
  return pendingSecret(s);
}

/** E3: whether this identity may answer `record`: any question without a route, a routed one if it waits for them (or they are an admin). */
export function mayAnswerHere(s: Pick<TuiState, 'identity' | 'scopes'>, record: Pick<QuestionRecord, 'route'>): boolean {
  return !record.route || mayAnswer(record.route, s.identity ?? undefined, s.scopes?.includes('operator.admin') === true);
}

/**
 * The request the prompt shows, and where it stands among the pending ones (`‹ 1/2 ›`); an approval lists only the
 * offers this identity may make (G5), and its rows and number keys count from those.
 */
export function currentRequest(s: TuiState): { record: QuestionRecord; index: number; count: number } | null {
  const pending = pendingRequests(s);
  const index = pending.findIndex((q) => q.id === s.requestId);
  if (index < 0) return null;
  return { record: recordWithChoosableOffers(pending[index], s.scopes), index, count: pending.length };
}

/**
 * Keeps view and current request consistent after any change: a request that ended closes its prompt at once (V3)
 * and the next pending one not put aside takes its place; a new pending one opens the prompt in place of the composer (V2).
 */
export function reconcile(s: TuiState): Partial<TuiState> {
  const pending = pendingRequests(s);
  const open = pending.filter((q) => !s.dismissed[q.id]);
  const current = pending.find((q) => q.id === s.requestId);
  const patch: Partial<TuiState> = {};
  if (!current) patch.requestId = open[0]?.id ?? pending[0]?.id ?? null;
  const requestId = patch.requestId !== undefined ? patch.requestId : s.requestId;
  if (s.view === 'prompt' && !pending.some((q) => q.id === requestId)) patch.view = 'composer';
  // K1: a secret request that ended (stored elsewhere, expired, cancelled) takes its masked field with it.
  if (s.view === 'secret' && !pendingSecret(s)) patch.view = 'composer';
  else if (s.view === 'secret' && s.secretId !== shownSecret(s)?.id) patch.secretId = shownSecret(s)?.id ?? null;
  if (s.view === 'composer' && open.length > 0) {
    patch.view = 'prompt';
    if (!open.some((q) => q.id === requestId)) patch.requestId = open[0].id;
  }
  return patch;
}
