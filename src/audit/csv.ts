import type { AuditEntry } from './entry.ts';

const COLUMNS = ['index', 'time', 'event', 'questionId', 'sessionKey', 'agentId', 'identity', 'surface', 'kind', 'status', 'decidedBy', 'rules', 'grantId', 'questionDigest', 'inputDigest', 'answersDigest'] as const;

/** RFC 4180 quoting; a cell a spreadsheet would run as a formula (= + - @) is written as text. */
export function csvCell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** L5 `--format csv`: a table for people beside the JSON lines; the JSON lines are what verifies. */
export function entriesCsv(entries: AuditEntry[]): string {
  const rows = entries.map((e) =>
    COLUMNS.map((column) => {
      if (column === 'time') return new Date(e.atMs).toISOString();
      if (column === 'rules') return (e.rules ?? []).join(' ');
      const value = e[column];
      return value === undefined ? '' : String(value);
    }),
  );
  return [COLUMNS as readonly string[], ...rows].map((row) => row.map(csvCell).join(',')).join('\r\n') + '\r\n';
}
