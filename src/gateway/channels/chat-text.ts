import { terminalLine, terminalText } from '../../lib/terminal-text.ts';
import type { Post } from './types.ts';

/**
 * What reaches a chat: an agent's question, its options and detail, a person's free text, an agent's reply. A chat
 * client shows text much as a terminal does, so the same rules hold: no control character goes out (each shows as
 * U+FFFD), and a bidi override or a Unicode line separator shows as its escape (`\u202E`), so no posted text can read
 * backwards or hide what it says.
 */
export const chatText = (text: string): string => terminalText(text);

/** An option label is at most 64 characters (Q2); shown escapes may lengthen it past what a platform takes (Slack 75). */
const LABEL_MAX = 64;

function buttonLabel(label: string): string {
  const chars = Array.from(terminalLine(label));
  return chars.length > LABEL_MAX ? `${chars.slice(0, LABEL_MAX - 1).join('')}…` : chars.join('');
}

/**
 * A post with every text it carries cleaned: its text, its code block and its buttons' labels (one line each; a link's
 * address was checked when it was asked, Q2).
 */
export function chatPost(post: Post): Post {
  return {
    ...post,
    text: chatText(post.text),
    ...(post.pre !== undefined ? { pre: chatText(post.pre) } : {}),
    buttons: post.buttons.map((b) => ({ ...b, label: buttonLabel(b.label) })),
  };
}
