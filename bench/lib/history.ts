import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Row } from './table.ts';

/** One line of bench/results/history.jsonl: a run's figures, as printed. */
export type HistoryEntry = {
  at: string;
  seconds: number;
  machine: { node: string; cpus: number; chromium?: string; loadAverage1m?: { start: number; end: number } };
  sections: string[];
  rows: Row[];
};

/** A row's identity across runs: its section and its figure, without the indent of a breakdown row. */
export const rowKey = (r: Pick<Row, 'section' | 'figure'>) => `${r.section}: ${r.figure.trim()}`;

/** "2.57x" -> 2.57; NaN when the ratio is missing or not a number. */
export const ratioValue = (ratio: string) => (/^-?\d+(\.\d+)?x$/.test(ratio) ? Number.parseFloat(ratio) : NaN);

/** Every entry of the history file, oldest first; a line that does not parse is skipped, not fatal. */
export function readHistory(path: string): HistoryEntry[] {
  if (!existsSync(path)) return [];
  const entries: HistoryEntry[] = [];
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    try {
      const e = JSON.parse(line) as HistoryEntry;
      if (Array.isArray(e.rows)) entries.push(e);
    } catch {
      // A truncated last line (a run killed while writing) must not stop the next run.
    }
  }
  return entries;
}

export function appendHistory(path: string, entry: HistoryEntry): void {
  mkdirSync(dirname(path), { recursive: true });
  appendFileSync(path, JSON.stringify(entry) + '\n');
}

/**
 * Fills each row's `trend`: its ratio in the latest earlier run that measured the same figure, and the change.
 * A run of a few sections (`--only`) compares each figure with the last run that had it.
 */
export function withTrend(rows: Row[], history: readonly HistoryEntry[]): Row[] {
  const previous = new Map<string, { ratio: string; at: string }>();
  for (const entry of history) for (const r of entry.rows) previous.set(rowKey(r), { ratio: r.ratio, at: entry.at });
  return rows.map((r) => ({ ...r, trend: trendOf(r.ratio, previous.get(rowKey(r))?.ratio) }));
}

function trendOf(now: string, before: string | undefined): string {
  const a = ratioValue(now);
  if (!Number.isFinite(a)) return '';
  if (before === undefined) return 'first run';
  const b = ratioValue(before);
  if (!Number.isFinite(b)) return 'first run';
  const change = b === 0 ? '' : `, ${a >= b ? '+' : ''}${Math.round(((a - b) / b) * 100)} %`;
  return `was ${before}${change}`;
}
