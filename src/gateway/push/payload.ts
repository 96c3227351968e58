/** U17: what a push says: the notification of a question (and how long a push service keeps it). */
import type { PushPayload, QuestionRecord } from '../../protocol/index.ts';
import { kindOf } from '../../answers/kinds/index.ts';

/** A question without an expiry is worth delivering for a day; a push service keeps nothing longer than it is told. */
export const TTL_WITHOUT_EXPIRY_S = 24 * 60 * 60;
/** Push services take about 4 KB of encrypted payload; the plain JSON stays well under. */
const MAX_PAYLOAD_BYTES = 3_600;
const BODY_MAX = 600;

const cut = (text: string, max: number) => {
  const points = [...text];
  return points.length <= max ? text : `${points.slice(0, max - 1).join('')}…`;
};

/**
 * U17: what a question's notification shows and no more: the first item's header and question, the two labels when
 * it is one single-select item with exactly two options (then its item id, to answer it), and the link page path.
 */
export function questionPayload(q: QuestionRecord): PushPayload {
  const first = q.questions[0];
  const more = q.questions.length > 1 ? ` (+${q.questions.length - 1} more)` : '';
  const taps = q.questions.length === 1 ? kindOf(first).oneTap(first) : null;
  const twoWay = taps !== null && taps.length === 2;
  const base = {
    type: 'question' as const,
    id: q.id,
    title: first.header,
    ...(twoWay ? { itemId: first.id, actions: [...taps] } : {}),
    path: `/q/${encodeURIComponent(q.id)}`,
    // E4: pushed only to the step's people, who may all take it.
    ...(q.route ? { ack: true as const } : {}),
  };
  return fitted(base, cut(first.question, BODY_MAX) + more);
}

/** The body cut until the whole push fits what a push service carries. */
function fitted<T extends object>(base: T, text: string): T & { body: string } {
  let body = text;
  while (Buffer.byteLength(JSON.stringify({ ...base, body })) > MAX_PAYLOAD_BYTES) body = cut(body, [...body].length - 50);
  return { ...base, body };
}

/**
 * E4: "Ana is on it" for a question's notification. It is the question's push with `text` leading its body (and no
 * "I'm on it"), so a worker older than `taken` shows the question saying who took it; a newer one says `text` on the
 * notification it shows, if it still shows it unresolved.
 */
export function takenPayload(q: QuestionRecord, text: string): PushPayload {
  const { type: _type, ack: _ack, body, ...rest } = questionPayload(q) as Extract<PushPayload, { type: 'question' }>;
  return fitted({ ...rest, type: 'taken' as const, text }, `${text}\n${body}`);
}

/** Seconds a push service should keep a question's push: what is left of its time, or a day when it has none. */
export function questionTtlS(q: QuestionRecord, nowMs: number): number {
  return q.expiresAtMs === null ? TTL_WITHOUT_EXPIRY_S : Math.max(0, Math.ceil((q.expiresAtMs - nowMs) / 1000));
}
