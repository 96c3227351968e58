import { z } from 'zod';
import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';
import type { Answers } from '../../../../protocol/index.ts';
import { answersFingerprint, EMPTY_ITEM, type ItemDraft } from '../lib/model.ts';
import { followOtherTabs } from './cross-tab.ts';

const ItemDraftSchema = z.object({ chosen: z.array(z.string()), other: z.string() });
const DraftSchema = z.object({
  items: z.record(z.string(), ItemDraftSchema),
  step: z.number().int().nonnegative(),
  resolutionId: z.string().optional(),
  touchedAtMs: z.number(),
});
/** What this browser sent: the answers' fingerprint, so a lost race is never mistaken for our own answer. */
const SentSchema = z.object({ atMs: z.number(), answers: z.string() });
const PersistedSchema = z.object({
  drafts: z.record(z.string(), DraftSchema),
  answeredHere: z.record(z.string(), SentSchema),
});
/** Version 1 kept only a time per answered record. */
const PersistedV1Schema = z.object({ drafts: z.record(z.string(), DraftSchema) });

export type Draft = z.infer<typeof DraftSchema>;
export type Sent = z.infer<typeof SentSchema>;
type Persisted = z.infer<typeof PersistedSchema>;

export const DRAFTS_STORAGE_KEY = 'askdock.question-drafts';
const VERSION = 2;
const DRAFT_TTL_MS = 14 * 24 * 3600_000;
const ANSWERED_KEEP = 500;

type Actions = {
  /** Single-select: the option replaces any choice and the Other text (last action wins). Multi-select: toggles it. */
  optionPicked(recordId: string, itemId: string, label: string, multiSelect: boolean): void;
  /** On single-select, non-blank Other text deselects the chosen option (U4). */
  otherTextChanged(recordId: string, itemId: string, text: string, multiSelect: boolean): void;
  stepChanged(recordId: string, step: number): void;
  /**
   * Returns the draft's resolution id, made once so a retried submit is the same resolve (Q5), and marks the
   * record as answered here before the gateway's event can arrive, so the summary never flickers "elsewhere".
   */
  submitStarted(recordId: string, answers?: Answers): string;
  submitSucceeded(recordId: string): void;
  /** A definite refusal: the mark goes; a terminal record (answered elsewhere) leaves nothing to send. */
  submitRejected(recordId: string, opts: { terminal: boolean }): void;
  /** The record ended some other way (elsewhere, expired, cancelled): nothing left to send. */
  draftDiscarded(recordId: string): void;
  /**
   * An async answer went into the outbox: marks what was sent, and keeps the draft, so a Discard reopens it
   * as it was (U9); the gateway's `question.resolved` drops it once the answer is saved.
   */
  asyncAnswerQueued(recordId: string, answers: Answers): void;
  /** Puts back a draft rebuilt from a discarded answer, unless this browser still holds one. */
  draftRestored(recordId: string, items: Record<string, ItemDraft>): void;
};

type DraftsState = Persisted & { actions: Actions };

const emptyDraft = (): Draft => ({ items: {}, step: 0, touchedAtMs: Date.now() });

function newResolutionId(): string {
  const c = globalThis.crypto;
  return `ui-${c?.randomUUID ? c.randomUUID() : Math.random().toString(36).slice(2) + Date.now().toString(36)}`;
}

/** Drops stale drafts and keeps the newest "answered here" marks, so storage stays small. */
function tidy(state: Persisted, now = Date.now()): Persisted {
  const drafts = Object.fromEntries(Object.entries(state.drafts).filter(([, d]) => now - d.touchedAtMs < DRAFT_TTL_MS));
  const answeredHere = Object.fromEntries(
    Object.entries(state.answeredHere)
      .sort((a, b) => b[1].atMs - a[1].atMs)
      .slice(0, ANSWERED_KEEP),
  );
  return { drafts, answeredHere };
}

/** Anything unreadable in storage starts over empty instead of breaking the dock. */
export function readPersisted(value: unknown): Persisted {
  const parsed = PersistedSchema.safeParse(value);
  return parsed.success ? tidy(parsed.data) : { drafts: {}, answeredHere: {} };
}

/** Older shapes move forward: version 1 drafts are kept, its bare answered times cannot say what was sent. */
export function migratePersisted(value: unknown, version: number): Persisted {
  if (version === 1) {
    const v1 = PersistedV1Schema.safeParse(value);
    return v1.success ? tidy({ drafts: v1.data.drafts, answeredHere: {} }) : { drafts: {}, answeredHere: {} };
  }
  return readPersisted(value);
}

export const useDraftsStore = create<DraftsState>()(
  persist(
    (set, get) => {
      const updateItem = (recordId: string, itemId: string, change: (item: ItemDraft) => ItemDraft) =>
        set((s) => {
          const draft = s.drafts[recordId] ?? emptyDraft();
          const item = change(draft.items[itemId] ?? EMPTY_ITEM);
          return {
            drafts: { ...s.drafts, [recordId]: { ...draft, items: { ...draft.items, [itemId]: item }, touchedAtMs: Date.now() } },
          };
        });
      const dropDraft = (recordId: string) =>
        set((s) => {
          if (!(recordId in s.drafts)) return s;
          const { [recordId]: _gone, ...rest } = s.drafts;
          return { drafts: rest };
        });
      return {
        drafts: {},
        answeredHere: {},
        actions: {
          optionPicked: (recordId, itemId, label, multiSelect) =>
            updateItem(recordId, itemId, (item) => {
              if (!multiSelect) return { chosen: [label], other: '' };
              const chosen = item.chosen.includes(label) ? item.chosen.filter((l) => l !== label) : [...item.chosen, label];
              return { ...item, chosen };
            }),
          otherTextChanged: (recordId, itemId, text, multiSelect) =>
            updateItem(recordId, itemId, (item) => ({
              chosen: !multiSelect && text.trim() ? [] : item.chosen,
              other: text,
            })),
          stepChanged: (recordId, step) =>
            set((s) => {
              const draft = s.drafts[recordId] ?? emptyDraft();
              return { drafts: { ...s.drafts, [recordId]: { ...draft, step, touchedAtMs: Date.now() } } };
            }),
          submitStarted: (recordId, answers) => {
            const resolutionId = get().drafts[recordId]?.resolutionId ?? newResolutionId();
            set((s) => {
              const draft = s.drafts[recordId] ?? emptyDraft();
              return {
                drafts: { ...s.drafts, [recordId]: { ...draft, resolutionId } },
                answeredHere: { ...s.answeredHere, [recordId]: { atMs: Date.now(), answers: answersFingerprint(answers) } },
              };
            });
            return resolutionId;
          },
          submitSucceeded: dropDraft,
          submitRejected: (recordId, { terminal }) => {
            if (terminal) dropDraft(recordId);
            set((s) => {
              const { [recordId]: _gone, ...rest } = s.answeredHere;
              return { answeredHere: rest };
            });
          },
          draftDiscarded: dropDraft,
          asyncAnswerQueued: (recordId, answers) =>
            set((s) => ({ answeredHere: { ...s.answeredHere, [recordId]: { atMs: Date.now(), answers: answersFingerprint(answers) } } })),
          draftRestored: (recordId, items) =>
            set((s) => (s.drafts[recordId] ? s : { drafts: { ...s.drafts, [recordId]: { ...emptyDraft(), items } } })),
        },
      };
    },
    {
      name: DRAFTS_STORAGE_KEY,
      version: VERSION,
      storage: createJSONStorage(() => localStorage),
      partialize: (s): Persisted => ({ drafts: s.drafts, answeredHere: s.answeredHere }),
      migrate: migratePersisted,
      merge: (persisted, current) => ({ ...current, ...readPersisted(persisted) }),
    },
  ),
);

followOtherTabs(useDraftsStore, DRAFTS_STORAGE_KEY);

const NO_ITEMS: Record<string, ItemDraft> = Object.freeze({}) as Record<string, ItemDraft>;

/** One question's draft; re-renders only when that question's draft changes. */
export const useItemDraft = (recordId: string, itemId: string): ItemDraft =>
  useDraftsStore((s) => s.drafts[recordId]?.items[itemId] ?? EMPTY_ITEM);
export const useDraftItems = (recordId: string): Record<string, ItemDraft> =>
  useDraftsStore((s) => s.drafts[recordId]?.items ?? NO_ITEMS);
export const useDraftStep = (recordId: string): number => useDraftsStore((s) => s.drafts[recordId]?.step ?? 0);
/** The fingerprint of what this browser sent for the record, if it sent anything. */
export const useSentHere = (recordId: string): string | undefined => useDraftsStore((s) => s.answeredHere[recordId]?.answers);
export const useDraftActions = (): Actions => useDraftsStore((s) => s.actions);
export const draftActions = (): Actions => useDraftsStore.getState().actions;
