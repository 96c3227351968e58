import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { appendHistory, readHistory, withTrend, type HistoryEntry } from './history.ts';
import { formatTable, type Row } from './table.ts';

const row = (figure: string, ratio: string, section = 'Gateway'): Row => ({ section, figure, measured: '1 ms', baseline: '', ratio, aim: '', met: null });
const entry = (at: string, rows: Row[]): HistoryEntry => ({ at, seconds: 1, machine: { node: 'v20', cpus: 2 }, sections: ['gateway'], rows });

describe('bench history', () => {
  it('appends one line per run and reads them back in order, skipping a truncated line', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'askdock-history-')), 'history.jsonl');
    appendHistory(path, entry('2026-01-01T00:00:00Z', [row('a', '1.00x')]));
    appendHistory(path, entry('2026-01-02T00:00:00Z', [row('a', '2.00x')]));
    writeFileSync(path, readFileSync(path, 'utf8') + '{"at":"2026-01-03', { flag: 'w' });
    expect(readHistory(path).map((e) => e.at)).toEqual(['2026-01-01T00:00:00Z', '2026-01-02T00:00:00Z']);
  });

  it('prints beside each ratio the latest earlier run that had the figure, and the change', () => {
    const history = [entry('1', [row('a', '2.00x'), row('b', '4.00x')]), entry('2', [row('a', '2.50x')])];
    const rows = withTrend([row('a', '2.00x'), row('  b', '5.00x'), row('c', '1.00x'), row('d', '')], history);
    expect(rows.map((r) => r.trend)).toEqual(['was 2.50x, -20 %', 'was 4.00x, +25 %', 'first run', '']);
    const table = formatTable(rows);
    expect(table).toContain('Previous run');
    expect(table).toMatch(/2\.00x\s+was 2\.50x, -20 %/);
  });

  it('prints every figure with an aim and a verdict, "none (context)" where it has none', () => {
    const table = formatTable([{ ...row('x', '1.00x'), aim: '< 2x', met: false }, row('y', '')]);
    expect(table).toMatch(/x .*< 2x\s+MISSED/);
    expect(table).toMatch(/y .*none \(context\)\s+-/);
  });
});
