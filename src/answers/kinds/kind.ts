/**
 * Q12: what every question kind provides (STYLE.md "Question kinds"). One module per kind implements this; every
 * surface and the gateway reach a kind through `kindOf(item)` (index.ts), never by testing the item's fields.
 * Pure and framework-free: the Control UI's first load, the TUI, the channels and the gateway all use it.
 */
import type { QuestionRecord } from '../../protocol/index.ts';

/** One question as stored and as every client sees it. */
export type KindItem = QuestionRecord['questions'][number];

/** One question's draft: the chosen labels and the typed text, kept apart so typed text never turns into a choice (U6). */
export type ItemDraft = { chosen: string[]; other: string };

/** A kind's verdict on a question's trimmed, non-blank values: the values as stored, or the rule they break. */
export type KindCheck = { ok: true; values: string[] } | { ok: false; problem: string };

export interface QuestionKind {
  /** Picking option `label` (U4): single choices replace, several toggle. */
  pick(item: KindItem, draft: ItemDraft, label: string): ItemDraft;
  /** Typing `text` in the free-text field (U4, U6). */
  type(item: KindItem, draft: ItemDraft, text: string): ItemDraft;
  /** The values a draft sends; empty while it answers nothing. */
  answer(item: KindItem, draft: ItemDraft): string[];
  /** The draft that gives back `values` (U9 Discard). */
  draftOf(item: KindItem, values: readonly string[]): ItemDraft;
  /** What an unanswered question says once a submit was tried. */
  missingText(item: KindItem): string;
  /** Q5: checks trimmed, non-blank values and returns them as stored. */
  check(item: KindItem, values: readonly string[]): KindCheck;
  /** PT1/PT2: one question's plain-text reply as values (checked afterwards). */
  readReply(item: KindItem, text: string): string[];
  /** Q9: one question's async reply body as values. */
  readBody(item: KindItem, body: string): string[];
  /** H3: the note after a question's title line, like ` (choose one or more)`. */
  titleNote(item: KindItem): string;
  /** H3: how to reply to this question when it is the prompt's only one; `skip` is `, or skip` or empty. */
  replyHint(item: KindItem, skip: string): string;
  /** H3: what the several-questions hint adds for this question, like `, commas between several choices`. */
  severalNote(item: KindItem): string;
  /** H3/U17: the labels one tap answers with (channel buttons, push actions), or null when one tap cannot answer. */
  oneTap(item: KindItem): readonly string[] | null;
}
