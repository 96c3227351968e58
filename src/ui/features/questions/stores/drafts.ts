import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';
import { own } from '../../../../protocol/rules.ts';
import type { Answers } from '../../../../protocol/index.ts';
import { startingDraft, withOptionPicked, withOtherText, type ItemDraft, type QuestionItemRecord } from '../../../../answers/collect.ts';
import { answersFingerprint, SKIP_FINGERPRINT } from '../lib/resolved-here.ts';
import { followOtherTabs } from './cross-tab.ts';
import { array, count, number, object, optional, read, record, string, type Checked } from '../../../lib/shape.ts';
import { newId } from '../../../../lib/ids.ts';
import { changedOnlyStorage } from '../../../lib/changed-only-storage.ts';

/**
 * One draft per question record, shared by the dock and the link page `/q/<id>`: what is typed in one shows in the
 * other, and both send it with the same resolution id, so the gateway never takes two answers from this browser (Q5).
 */
const ItemDraftSchema = object({ chosen: array(string()), other: string() });
const draftFields = { items: record(ItemDraftSchema), resolutionId: optional(string()), touchedAtMs: number };
const DraftSchema = object({ ...draftFields, step: count });
/** Fingerprints of every answer (or SKIP_FINGERPRINT) this browser tried for a record, so any of them counts as ours. */
const SentSchema = object({ atMs: number, answers: array(string()) });
const PersistedSchema = object({ drafts: record(DraftSchema), sent: record(SentSchema) });
/** Version 2 kept the one fingerprint last sent from the dock, a skip as that of no answers. */
const PersistedV2Schema = object({ drafts: record(DraftSchema), answeredHere: record(object({ atMs: number, answers: string() })) });
/** Version 1 kept only a time per answered record. */
const PersistedV1Schema = object({ drafts: record(DraftSchema) });
/** The link page's own store (its version 1), from before it shared these drafts: no step. */
const LinkPageSchema = object({ drafts: record(object(draftFields)), sent: record(SentSchema) });

export type Draft = Checked<typeof DraftSchema>;
type Persisted = Checked<typeof PersistedSchema>;

export const DRAFTS_STORAGE_KEY = 'askdock.question-drafts';
/** Where the link page kept its drafts before; read once into this store, then removed. */
export const LINK_PAGE_STORAGE_KEY = 'askdock.question-link-drafts';
const VERSION = 3;
const DRAFT_TTL_MS = 14 * 24 * 3600_000;
const SENT_KEEP = 500;

type Actions = {
  /** Picking an option, as the question's kind reads it (U4: single choices replace the choice and the Other text, several toggle). */
  optionPicked(recordId: string, item: QuestionItemRecord, label: string): void;
  /** Typing free text, as the question's kind reads it (U4: on single-select, non-blank text deselects the chosen option). */
  otherTextChanged(recordId: string, item: QuestionItemRecord, text: string): void;
  stepChanged(recordId: string, step: number): void;
  /**
   * Returns the draft's resolution id (`resolutionId`, from `resolutionIdOf`, when it has none yet), kept so a retried or
   * re-sent submit is the same resolve from either surface (Q5), and remembers what was tried before the gateway's
   * event can arrive, so an outcome never flickers "elsewhere".
   */
  submitStarted(recordId: string, answers: Answers | 'skip', resolutionId?: string): string;
  submitSucceeded(recordId: string): void;
  /** The record ended some other way (elsewhere, expired, cancelled, gone): nothing left to send. */
  draftDiscarded(recordId: string): void;
  /**
   * An async answer went into the outbox: remembers what was sent, and keeps the draft, so a Discard reopens it
   * as it was (U9); the gateway's `question.resolved` drops it once the answer is saved.
   */
  asyncAnswerQueued(recordId: string, answers: Answers): void;
  /** Puts back a draft rebuilt from a discarded answer, unless this browser still holds one. */
  draftRestored(recordId: string, items: Record<string, ItemDraft>): void;
};

type DraftsState = Persisted & { actions: Actions };

const emptyDraft = (): Draft => ({ items: {}, step: 0, touchedAtMs: Date.now() });
const empty = (): Persisted => ({ drafts: {}, sent: {} });

const newResolutionId = () => `ui-${newId()}`;

/** Drops stale drafts and keeps the newest sent marks, so storage stays small. */
function tidy(state: Persisted, now = Date.now()): Persisted {
  const drafts = Object.fromEntries(Object.entries(state.drafts).filter(([, d]) => now - d.touchedAtMs < DRAFT_TTL_MS));
  const sent = Object.fromEntries(
    Object.entries(state.sent)
      .sort((a, b) => b[1].atMs - a[1].atMs)
      .slice(0, SENT_KEEP),
  );
  return { drafts, sent };
}

/** Anything unreadable in storage starts over empty instead of breaking the dock or the page. */
export function readPersisted(value: unknown): Persisted {
  const parsed = read(PersistedSchema, value);
  return parsed ? tidy(parsed) : empty();
}

/** Older shapes move forward: drafts are kept; version 2's one fingerprint becomes a list, version 1's bare times go. */
export function migratePersisted(value: unknown, version: number): Persisted {
  if (version === 2) {
    const v2 = read(PersistedV2Schema, value);
    if (!v2) return empty();
    const sent = Object.fromEntries(
      Object.entries(v2.answeredHere).map(([id, m]) => [id, { atMs: m.atMs, answers: [m.answers === '[]' ? SKIP_FINGERPRINT : m.answers] }]),
    );
    return tidy({ drafts: v2.drafts, sent });
  }
  if (version === 1) {
    const v1 = read(PersistedV1Schema, value);
    return v1 ? tidy({ drafts: v1.drafts, sent: {} }) : empty();
  }
  return readPersisted(value);
}

/** Adds what the link page's old store held: of two drafts for one record the newer wins; sent marks add up. */
export function withLinkPageData(state: Persisted, value: unknown): Persisted {
  const parsed = read(LinkPageSchema, value);
  if (!parsed) return state;
  const drafts = { ...state.drafts };
  for (const [id, draft] of Object.entries(parsed.drafts))
    {
    const mine = own(drafts, id);
    if (!mine || mine.touchedAtMs < draft.touchedAtMs) drafts[id] = { ...draft, step: mine?.step ?? 0 };
  }
  return tidy({ drafts, sent: sentMarksOfBoth(state.sent, parsed.sent) });
}

/** Every fingerprint either side remembers for a record: a sent mark is only ever added, never taken back. */
export function sentMarksOfBoth(mine: Persisted['sent'], theirs: Persisted['sent']): Persisted['sent'] {
  const sent = { ...mine };
  for (const [id, mark] of Object.entries(theirs)) {
    const before = own(sent, id);
    sent[id] = before ? { atMs: Math.max(before.atMs, mark.atMs), answers: [...new Set([...before.answers, ...mark.answers])] } : mark;
  }
  return sent;
}

/**
 * Reading storage again (another tab wrote it) takes its drafts but adds up the sent marks: a tab that wrote before it
 * read this tab's newest mark must not make this tab forget its own answer and call it "Answered elsewhere".
 */
export function mergedWithStored(stored: unknown, current: Persisted): Persisted {
  const incoming = readPersisted(stored);
  return tidy({ drafts: incoming.drafts, sent: sentMarksOfBoth(current.sent, incoming.sent) });
}

export const useDraftsStore = create<DraftsState>()(
  persist(
    (set, get) => {
      const touch = (recordId: string, change: (draft: Draft) => Partial<Draft>) =>
        set((s) => {
          const draft = own(s.drafts, recordId) ?? emptyDraft();
          return { drafts: { ...s.drafts, [recordId]: { ...draft, ...change(draft), touchedAtMs: Date.now() } } };
        });
      const updateItem = (recordId: string, item: QuestionItemRecord, change: (draft: ItemDraft) => ItemDraft) =>
        touch(recordId, (draft) => ({ items: { ...draft.items, [item.id]: change(own(draft.items, item.id) ?? startingDraft(item)) } }));
      const dropDraft = (recordId: string) =>
        set((s) => {
          if (!Object.hasOwn(s.drafts, recordId)) return s;
          const { [recordId]: _gone, ...rest } = s.drafts;
          return { drafts: rest };
        });
      // A refused try stays remembered: an earlier one the gateway took while its reply was lost must still read as ours.
      const remember = (s: Persisted, recordId: string, fingerprint: string) => {
        const before = own(s.sent, recordId)?.answers ?? [];
        const answers = before.includes(fingerprint) ? before : [...before, fingerprint];
        return { sent: { ...s.sent, [recordId]: { atMs: Date.now(), answers } } };
      };
      return {
        drafts: {},
        sent: {},
        actions: {
          optionPicked: (recordId, item, label) => updateItem(recordId, item, (draft) => withOptionPicked(item, draft, label)),
          otherTextChanged: (recordId, item, text) => updateItem(recordId, item, (draft) => withOtherText(item, draft, text)),
          stepChanged: (recordId, step) => touch(recordId, () => ({ step })),
          submitStarted: (recordId, answers, given) => {
            const resolutionId = own(get().drafts, recordId)?.resolutionId ?? given ?? newResolutionId();
            const fingerprint = answers === 'skip' ? SKIP_FINGERPRINT : answersFingerprint(answers);
            set((s) => ({
              drafts: { ...s.drafts, [recordId]: { ...(own(s.drafts, recordId) ?? emptyDraft()), resolutionId } },
              ...remember(s, recordId, fingerprint),
            }));
            return resolutionId;
          },
          submitSucceeded: dropDraft,
          draftDiscarded: dropDraft,
          asyncAnswerQueued: (recordId, answers) => set((s) => remember(s, recordId, answersFingerprint(answers))),
          draftRestored: (recordId, items) =>
            set((s) => (own(s.drafts, recordId) ? s : { drafts: { ...s.drafts, [recordId]: { ...emptyDraft(), items } } })),
        },
      };
    },
    {
      name: DRAFTS_STORAGE_KEY,
      version: VERSION,
      // localStorage, so a reload, a failed load or a closed tab keeps what was typed (U6, U10, U11).
      storage: createJSONStorage(changedOnlyStorage(() => localStorage)),
      partialize: (s): Persisted => ({ drafts: s.drafts, sent: s.sent }),
      migrate: migratePersisted,
      merge: (persisted, current) => ({ ...current, ...mergedWithStored(persisted, current) }),
    },
  ),
);

/** Moves the link page's old drafts in once, so an upgrade loses nothing typed there (U11). */
function adoptLinkPageDrafts() {
  if (typeof localStorage === 'undefined') return;
  const raw = localStorage.getItem(LINK_PAGE_STORAGE_KEY);
  if (raw === null) return;
  let stored: unknown = null;
  try {
    stored = (JSON.parse(raw) as { state?: unknown } | null)?.state;
  } catch {
    // Unreadable: nothing to keep.
  }
  useDraftsStore.setState((s) => withLinkPageData(s, stored));
  localStorage.removeItem(LINK_PAGE_STORAGE_KEY);
}

adoptLinkPageDrafts();
followOtherTabs(useDraftsStore, DRAFTS_STORAGE_KEY);

const NOTHING_SENT: string[] = Object.freeze([]) as unknown as string[];

/** One question's draft (X5: its preset value until touched); re-renders only when that question's draft changes. */
export const useItemDraft = (recordId: string, item: QuestionItemRecord): ItemDraft =>
  useDraftsStore((s) => own(own(s.drafts, recordId)?.items, item.id) ?? startingDraft(item));
export const useDraftStep = (recordId: string): number => useDraftsStore((s) => own(s.drafts, recordId)?.step ?? 0);
/** Fingerprints of what this browser sent for the record (answers, or SKIP_FINGERPRINT), from either surface. */
export const useSentHere = (recordId: string): string[] => useDraftsStore((s) => own(s.sent, recordId)?.answers ?? NOTHING_SENT);
export const useDraftActions = (): Actions => useDraftsStore((s) => s.actions);
export const draftActions = (): Actions => useDraftsStore.getState().actions;
/** The resolution id a submit of this record sends: its draft's, or a new one for `submitStarted` to keep. */
export const resolutionIdOf = (recordId: string): string => own(useDraftsStore.getState().drafts, recordId)?.resolutionId ?? newResolutionId();
