import type { ReactNode } from 'react';

/** A snippet with its matched words in <mark> (U19); the text is text, never HTML. */
export function Highlighted({ text, ranges }: { text: string; ranges: readonly (readonly [number, number])[] }) {
  const parts: ReactNode[] = [];
  let at = 0;
  for (const [start, end] of ranges) {
    if (start < at || end > text.length) continue;
    if (start > at) parts.push(text.slice(at, start));
    parts.push(<mark key={start}>{text.slice(start, end)}</mark>);
    at = end;
  }
  if (at < text.length) parts.push(text.slice(at));
  return <>{parts}</>;
}
