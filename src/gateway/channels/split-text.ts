/**
 * A platform caps one message's text (Telegram 4,096 characters, a Slack section 3,000, Discord 2,000); a prompt of
 * three questions or an agent's long reply is longer. `splitText` cuts a text into parts of at most `limit` (as
 * `measure` counts them), at line breaks where it can, else at a space, else anywhere but inside a surrogate pair.
 */
export function splitText(text: string, limit: number, measure: (s: string) => number = (s) => s.length): string[] {
  if (measure(text) <= limit) return [text];
  const parts: string[] = [];
  let current = '';
  const flush = () => {
    if (current.trim() !== '') parts.push(current.replace(/\n+$/, ''));
    current = '';
  };
  for (const line of text.split('\n')) {
    const joined = current === '' ? line : `${current}\n${line}`;
    if (measure(joined) <= limit) {
      current = joined;
      continue;
    }
    flush();
    let rest = line;
    while (measure(rest) > limit) {
      const cut = cutPoint(rest, limit, measure);
      parts.push(rest.slice(0, cut).trimEnd());
      rest = rest.slice(cut).trimStart();
    }
    current = rest;
  }
  flush();
  // A platform refuses an empty message: a stretch of spaces cut on its own leaves nothing to post.
  const kept = parts.filter((p) => p.trim() !== '');
  return kept.length > 0 ? kept : [text.slice(0, limit)];
}

/** Where a line longer than `limit` is cut: the last space that keeps the head within it, else the limit itself. */
function cutPoint(line: string, limit: number, measure: (s: string) => number): number {
  // The longest head within the limit, by halves (a measure grows with the text): a long line costs log n measures.
  let lo = 1;
  let hi = Math.min(line.length, limit);
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (measure(line.slice(0, mid)) <= limit) lo = mid;
    else hi = mid - 1;
  }
  let end = lo;
  const code = line.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end--; // never split a surrogate pair
  const space = line.lastIndexOf(' ', end);
  return space > end / 2 ? space + 1 : Math.max(1, end);
}

/** An edit replaces one message: a text over the limit keeps its head and ends with an ellipsis. */
export function fitText(text: string, limit: number, measure: (s: string) => number = (s) => s.length): string {
  if (measure(text) <= limit) return text;
  return `${splitText(text, limit - 1, measure)[0]}…`;
}
