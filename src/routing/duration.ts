/** E1: durations as the routing config writes them: "90s", "5m", "1h30m", "24h". Strict: no spaces, no decimals, no other units. */
const DURATION = /^(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?$/;

export const MS = { second: 1_000, minute: 60_000, hour: 3_600_000 } as const;

/** Milliseconds, or why the text is not a duration. */
export function parseDuration(text: unknown): { ok: true; ms: number } | { ok: false; problem: string } {
  const shape = 'a duration such as "90s", "5m" or "1h30m"';
  if (typeof text !== 'string') return { ok: false, problem: `must be ${shape}` };
  const m = DURATION.exec(text);
  if (!m || text === '') return { ok: false, problem: `must be ${shape}, got "${text}"` };
  const [h, min, s] = [m[1], m[2], m[3]].map((part) => Number(part ?? 0));
  return { ok: true, ms: h * MS.hour + min * MS.minute + s * MS.second };
}

/** A duration for people: "1h30m", "5m", "90s" reads as "1m30s". */
export function formatDuration(ms: number): string {
  const total = Math.round(ms / MS.second);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const text = `${h ? `${h}h` : ''}${m ? `${m}m` : ''}${s ? `${s}s` : ''}`;
  return text || '0s';
}
