/** One line of the results table: a figure, its same-run baseline, their ratio and the aim it is held to. */
export type Row = {
  section: string;
  figure: string;
  measured: string;
  baseline: string;
  ratio: string;
  aim: string;
  /** true met, false missed, null no aim (a breakdown or context figure). */
  met: boolean | null;
  /** The ratio in the previous run that had this figure, and the change (filled by withTrend). */
  trend?: string;
};

const HEAD: Row = { section: '', figure: 'Figure', measured: 'Measured', baseline: 'Baseline (same run)', ratio: 'Ratio', trend: 'Previous run', aim: 'Aim', met: null };

const verdict = (met: boolean | null) => (met === null ? '-' : met ? 'ok' : 'MISSED');
const aimOf = (r: Row) => r.aim || 'none (context)';

/** A plain-text table for the terminal, one block per section. */
export function formatTable(rows: Row[]): string {
  const cells = (r: Row) => [r.figure, r.measured, r.baseline, r.ratio, r.trend ?? '', r === HEAD ? r.aim : aimOf(r), r === HEAD ? 'Met' : verdict(r.met)];
  const widths = cells(HEAD).map((_, i) => Math.max(...[HEAD, ...rows].map((r) => cells(r)[i].length)));
  const line = (r: Row) => cells(r).map((c, i) => c.padEnd(widths[i])).join('  ').trimEnd();
  const out = [line(HEAD), widths.map((w) => '-'.repeat(w)).join('  ')];
  let section = '';
  for (const r of rows) {
    if (r.section !== section) out.push(`[${(section = r.section)}]`);
    out.push(line(r));
  }
  return out.join('\n');
}

/** The same table in Markdown, for the README. */
export function formatMarkdown(rows: Row[]): string {
  const esc = (s: string) => s.replace(/\|/g, '\\|');
  const out = ['| Figure | Measured | Baseline (same run) | Ratio | Previous run | Aim | Met |', '|---|---|---|---|---|---|---|'];
  for (const r of rows)
    out.push(`| ${esc(`${r.section}: ${r.figure.trim()}`)} | ${esc(r.measured)} | ${esc(r.baseline)} | ${esc(r.ratio)} | ${esc(r.trend ?? '')} | ${esc(aimOf(r))} | ${verdict(r.met)} |`);
  return out.join('\n');
}

export const ms = (x: number | undefined) => (x === undefined || !Number.isFinite(x) ? 'n/a' : `${x < 1 ? x.toFixed(2) : x < 10 ? x.toFixed(1) : Math.round(x)} ms`);
export const pair = (a: number | undefined, b: number | undefined) => `${ms(a)} / ${ms(b)}`;
export const times = (x: number) => (Number.isFinite(x) ? `${x.toFixed(2)}x` : 'n/a');
