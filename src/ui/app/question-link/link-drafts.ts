import { z } from 'zod';
import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';
import type { Answers } from '../../../protocol/index.ts';
import { answersFingerprint, EMPTY_ITEM, SKIP_FINGERPRINT, type ItemDraft } from './answers.ts';

const ItemDraftSchema = z.object({ chosen: z.array(z.string()), other: z.string() });
const DraftSchema = z.object({
  items: z.record(z.string(), ItemDraftSchema),
  resolutionId: z.string().optional(),
  touchedAtMs: z.number(),
});
/** What this page sent for a record: fingerprints of every answer tried, so any of them counts as ours. */
const SentSchema = z.object({ atMs: z.number(), answers: z.array(z.string()) });
const PersistedSchema = z.object({
  drafts: z.record(z.string(), DraftSchema),
  sent: z.record(z.string(), SentSchema),
});

export type LinkDraft = z.infer<typeof DraftSchema>;
type Persisted = z.infer<typeof PersistedSchema>;

export const LINK_DRAFTS_STORAGE_KEY = 'askdock.question-link-drafts';
const VERSION = 1;
const DRAFT_TTL_MS = 14 * 24 * 3600_000;
const SENT_KEEP = 200;

type Actions = {
  /** Single-select: the option replaces any choice and the Other text. Multi-select: toggles it. */
  optionPicked(recordId: string, itemId: string, label: string, multiSelect: boolean): void;
  /** On single-select, non-blank Other text deselects the chosen option (U4). */
  otherTextChanged(recordId: string, itemId: string, text: string, multiSelect: boolean): void;
  /** Returns the draft's resolution id, made once so a re-sent or retried submit is the same resolve (Q5). */
  submitStarted(recordId: string, answers: Answers | 'skip'): string;
  submitSucceeded(recordId: string): void;
  /** A definite refusal; `terminal` means the record ended some other way and nothing is left to send. */
  submitRejected(recordId: string, opts: { terminal: boolean }): void;
  /** The record ended (elsewhere, expired, cancelled, gone): its draft has nothing left to send. */
  draftDiscarded(recordId: string): void;
};

type LinkDraftsState = Persisted & { actions: Actions };

const emptyDraft = (): LinkDraft => ({ items: {}, touchedAtMs: Date.now() });

function newResolutionId(): string {
  const c = globalThis.crypto;
  return `link-${c?.randomUUID ? c.randomUUID() : Math.random().toString(36).slice(2) + Date.now().toString(36)}`;
}

/** Drops stale drafts and old marks, so storage stays small. */
function tidy(state: Persisted, now = Date.now()): Persisted {
  const drafts = Object.fromEntries(Object.entries(state.drafts).filter(([, d]) => now - d.touchedAtMs < DRAFT_TTL_MS));
  const sent = Object.fromEntries(
    Object.entries(state.sent)
      .sort((a, b) => b[1].atMs - a[1].atMs)
      .slice(0, SENT_KEEP),
  );
  return { drafts, sent };
}

/** Anything unreadable in storage starts empty instead of breaking the page. */
export function readPersisted(value: unknown): Persisted {
  const parsed = PersistedSchema.safeParse(value);
  return parsed.success ? tidy(parsed.data) : { drafts: {}, sent: {} };
}

export const useLinkDraftsStore = create<LinkDraftsState>()(
  persist(
    (set, get) => {
      const updateItem = (recordId: string, itemId: string, change: (item: ItemDraft) => ItemDraft) =>
        set((s) => {
          const draft = s.drafts[recordId] ?? emptyDraft();
          const item = change(draft.items[itemId] ?? EMPTY_ITEM);
          return { drafts: { ...s.drafts, [recordId]: { ...draft, items: { ...draft.items, [itemId]: item }, touchedAtMs: Date.now() } } };
        });
      const dropDraft = (recordId: string) =>
        set((s) => {
          if (!(recordId in s.drafts)) return s;
          const { [recordId]: _gone, ...rest } = s.drafts;
          return { drafts: rest };
        });
      return {
        drafts: {},
        sent: {},
        actions: {
          optionPicked: (recordId, itemId, label, multiSelect) =>
            updateItem(recordId, itemId, (item) => {
              if (!multiSelect) return { chosen: [label], other: '' };
              const chosen = item.chosen.includes(label) ? item.chosen.filter((l) => l !== label) : [...item.chosen, label];
              return { ...item, chosen };
            }),
          otherTextChanged: (recordId, itemId, text, multiSelect) =>
            updateItem(recordId, itemId, (item) => ({ chosen: !multiSelect && text.trim() ? [] : item.chosen, other: text })),
          submitStarted: (recordId, answers) => {
            const resolutionId = get().drafts[recordId]?.resolutionId ?? newResolutionId();
            const fingerprint = answers === 'skip' ? SKIP_FINGERPRINT : answersFingerprint(answers);
            set((s) => {
              const draft = s.drafts[recordId] ?? emptyDraft();
              const before = s.sent[recordId]?.answers ?? [];
              const answersSent = before.includes(fingerprint) ? before : [...before, fingerprint];
              return {
                drafts: { ...s.drafts, [recordId]: { ...draft, resolutionId } },
                sent: { ...s.sent, [recordId]: { atMs: Date.now(), answers: answersSent } },
              };
            });
            return resolutionId;
          },
          submitSucceeded: dropDraft,
          submitRejected: (recordId, { terminal }) => {
            if (terminal) dropDraft(recordId);
          },
          draftDiscarded: dropDraft,
        },
      };
    },
    {
      name: LINK_DRAFTS_STORAGE_KEY,
      version: VERSION,
      // localStorage, so a reload, a failed load or a closed tab keeps what was typed.
      storage: createJSONStorage(() => localStorage),
      partialize: (s): Persisted => ({ drafts: s.drafts, sent: s.sent }),
      migrate: (persisted) => readPersisted(persisted),
      merge: (persisted, current) => ({ ...current, ...readPersisted(persisted) }),
    },
  ),
);

const NO_ITEMS: Record<string, ItemDraft> = Object.freeze({}) as Record<string, ItemDraft>;
const NOTHING_SENT: string[] = Object.freeze([]) as unknown as string[];

export const useLinkItemDraft = (recordId: string, itemId: string): ItemDraft =>
  useLinkDraftsStore((s) => s.drafts[recordId]?.items[itemId] ?? EMPTY_ITEM);
export const useLinkDraftItems = (recordId: string): Record<string, ItemDraft> =>
  useLinkDraftsStore((s) => s.drafts[recordId]?.items ?? NO_ITEMS);
/** Fingerprints of what this page sent for the record (answers, or SKIP_FINGERPRINT). */
export const useSentFromLink = (recordId: string): string[] => useLinkDraftsStore((s) => s.sent[recordId]?.answers ?? NOTHING_SENT);
export const useLinkDraftActions = (): Actions => useLinkDraftsStore((s) => s.actions);
export const linkDraftActions = (): Actions => useLinkDraftsStore.getState().actions;

// Another tab writing the key (the same link open twice) is read again, so both show one draft (U10).
if (typeof window !== 'undefined')
  window.addEventListener('storage', (e) => {
    if (e.key === LINK_DRAFTS_STORAGE_KEY || e.key === null) void useLinkDraftsStore.persist.rehydrate();
  });
