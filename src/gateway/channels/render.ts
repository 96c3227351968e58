import { readableOutcome, readablePrompt, replyHint, type ReadableItem } from '../../answers/readable-prompt.ts';
import { kindOf } from '../../answers/kinds/index.ts';
import { answeredByText, approversText } from '../../lib/answered-by.ts';
import type { QuestionRecord } from '../../protocol/index.ts';
import { questionToken } from './bindings.ts';
import { fitText } from './split-text.ts';
import type { ChannelCapabilities } from './registry.ts';
import type { Post, PostButton } from './types.ts';

type Item = ReadableItem;
const itemsOf = (q: QuestionRecord): Item[] => q.questions as Item[];

/** H3: only a prompt of one question that one tap answers (its kind says which) gets native buttons. */
export function hasButtons(q: QuestionRecord): boolean {
  return q.questions.length === 1 && kindOf(q.questions[0]).oneTap(q.questions[0]) !== null;
}

/** E4: the button (and, as `ack`, the reply) that takes a routed question without answering it. */
export const ACK_LABEL = "I'm on it";
export const ACK_REPLY = 'ack';

/** H4: what a question without a run says under its prompt, and to a press on it. */
export const RUNLESS_NOTICE = 'This question can only be answered in the Control UI or the TUI.';

/** Button data: the question's token and the choice (`0`..`3`, `skip`, `other`, `ack`). */
export function action(questionId: string, choice: string): string {
  return `${questionToken(questionId)}:${choice}`;
}

export function parseAction(data: string): { token: string; choice: string } | null {
  const m = /^([A-Za-z0-9_-]{16}):(\d|skip|other|ack)$/.exec(data);
  return m ? { token: m[1], choice: m[2] } : null;
}

function title(item: Item): string {
  const one = (s: string) => s.replace(/\s+/g, ' ').trim();
  return item.header && item.header.toLowerCase() !== one(item.question).toLowerCase()
    ? `${one(item.header)}: ${one(item.question)}`
    : one(item.question);
}

const linkButtons = (q: QuestionRecord): PostButton[] =>
  itemsOf(q).flatMap((item) => (item.url ? [{ kind: 'link' as const, label: 'Open link', url: item.url }] : []));

/** With a public address: the question's own page (U11), where every kind of question can be answered. */
const pageButton = (q: QuestionRecord, publicUrl: string | undefined): PostButton[] =>
  publicUrl ? [{ kind: 'link', label: 'Open in askdock', url: `${publicUrl}/q/${encodeURIComponent(q.id)}` }] : [];

/** X2: the question's own page (`/q/<id>`, PRODUCT U11) under `base`, the Control UI's address. */
export function questionPageAddress(base: string, id: string): string {
  return new URL(`/q/${encodeURIComponent(id)}`, base).toString();
}

/**
 * X2: a post's text with its `pre` as a Markdown code block (Slack's mrkdwn and Discord read it so); a ``` inside the
 * detail is broken with a zero-width space, so the detail can never end the block early.
 */
export function withCodeBlock(text: string, pre: string | undefined): string {
  if (pre === undefined) return text;
  const block = `\`\`\`\n${pre.replaceAll('```', '``\u200b`')}\n\`\`\``;
  return text ? `${text}\n\n${block}` : block;
}

/** X2: the details of a prompt's questions as one block (each named by its header when there are several). */
export function detailOf(q: QuestionRecord): string | undefined {
  const items = itemsOf(q).filter((item) => item.detail);
  if (items.length === 0) return undefined;
  return items.length === 1 ? items[0].detail : items.map((item) => `# ${item.header}\n${item.detail}`).join('\n\n');
}

/**
 * The prompt as first posted: buttons for one single-select question (H3), readable text otherwise; a detail (X2)
 * goes under it as a code block (the channel cuts it to fit) with the address of the question's page, which shows it whole.
 */
export function questionPost(q: QuestionRecord, can: ChannelCapabilities, pageUrl?: string, publicUrl?: string): Post {
  const post = promptPost(q, can, publicUrl);
  const pre = detailOf(q);
  if (!pre) return post;
  return { ...post, text: pageUrl ? `${post.text}\n\nWhole detail: ${pageUrl}` : post.text, pre };
}

function promptPost(q: QuestionRecord, can: ChannelCapabilities, publicUrl?: string): Post {
  // H4: a question without a run is posted like any other (H3), but a channel message or press never answers it:
  // its notice stands where the reply hint would.
  const runless = q.runId === undefined;
  const items = itemsOf(q);
  const ackHint = q.route && !runless ? ` Reply ${ACK_REPLY} if you are on it.` : '';
  if (!hasButtons(q)) return { text: readablePrompt(items, runless ? RUNLESS_NOTICE : `${replyHint(items)}${ackHint}`), buttons: [...linkButtons(q), ...pageButton(q, publicUrl)] };
  const item = items[0];
  const described = item.options.filter((o) => o.description);
  const notes = described.map((o) => `• ${o.label}: ${o.description}`);
  const text = [title(item), ...notes].join('\n');
  const buttons: PostButton[] = item.options.map((o, i) => ({ kind: 'option', label: o.label, action: action(q.id, String(i)) }));
  // Telegram asks for the free text with Force Reply; elsewhere any reply in the conversation is the free text.
  if (can.forceReply) buttons.push({ kind: 'other', label: 'Other…', action: action(q.id, 'other') });
  buttons.push({ kind: 'skip', label: 'Skip', action: action(q.id, 'skip') });
  // E4: a routed question can be taken ("I'm on it") without answering it.
  if (q.route && !runless) buttons.push({ kind: 'ack', label: ACK_LABEL, action: action(q.id, 'ack') });
  buttons.push(...linkButtons(q), ...pageButton(q, publicUrl));
  const hint = runless ? `\n\n${RUNLESS_NOTICE}` : can.forceReply ? '' : '\nOr reply with your own words.';
  return { text: text + hint, buttons };
}

/**
 * H5: the posted prompt once resolved: its questions, then the outcome (E7: and who answered a routed one); no buttons. Within `limit` (as `measure`
 * counts), the questions' titles give way first, so the outcome always shows.
 */
export function outcomePost(q: QuestionRecord, limit = Infinity, measure: (s: string) => number = (s) => s.length): Post {
  const titles = itemsOf(q).map(title).join('\n');
  // E7: a routed question's outcome says who answered it, and where; E5: a quorum's approvers on a line of their own.
  const outcome = [readableOutcome(q), answeredByText(q), approversText(q)].filter(Boolean).join('\n');
  const whole = `${titles}\n\n${outcome}`.trim();
  if (measure(whole) <= limit) return { text: whole, buttons: [] };
  const room = limit - measure(outcome) - 2;
  const text = room > 20 ? `${fitText(titles, room, measure)}\n\n${outcome}` : fitText(outcome, limit, measure);
  return { text, buttons: [] };
}

/** Telegram's Force Reply prompt after `Other…`. */
export function otherPrompt(q: QuestionRecord): string {
  return `Reply to this message with your answer to: ${title(itemsOf(q)[0])}`;
}
