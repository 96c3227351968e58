/**
 * X2: a question's detail cut for a surface with little room (the TUI, a channel message): its first lines, then
 * `… N more lines` for the rest. `fits` may shorten it further (a channel's character limit, as the platform counts).
 */
export function cutDetail(detail: string, maxLines: number, fits: (text: string) => boolean = () => true): string {
  const lines = detail.replace(/\n+$/, '').split('\n');
  const withMore = (n: number) => {
    const more = lines.length - n;
    const head = lines.slice(0, n);
    return more > 0 ? [...head, `… ${more} more ${more === 1 ? 'line' : 'lines'}`].join('\n') : head.join('\n');
  };
  let n = Math.min(lines.length, Math.max(1, maxLines));
  // Fewer whole lines while it does not fit: by halves, since a long detail has thousands of lines and `fits` may cost.
  if (fits(withMore(n))) return withMore(n);
  let lo = 0;
  let hi = n;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (fits(withMore(mid))) lo = mid;
    else hi = mid;
  }
  n = lo;
  if (n > 0) return withMore(n);
  // Not even one whole line: the first line's head, so the block never comes out empty.
  const rest = lines.length > 1 ? `\n… ${lines.length - 1} more ${lines.length === 2 ? 'line' : 'lines'}` : '';
  let keep = lines[0].length;
  while (keep > 1 && !fits(`${lines[0].slice(0, keep)}…${rest}`)) keep >>= 1;
  return `${lines[0].slice(0, keep)}…${rest}`;
}
