import { describe, expect, it } from 'vitest';
import { exportOf } from '../testing/audit-log.ts';
import { csvCell } from './csv.ts';

describe('entries.csv (L5 --format csv)', () => {
  it('[L5] the CSV is a table for people: quoted where needed, and a cell never runs as a spreadsheet formula', () => {
    const { files } = exportOf({ format: 'csv' });
    const [header, first] = files.get('entries.csv')!.split('\r\n');
    expect(header.startsWith('index,time,event,questionId,sessionKey')).toBe(true);
    expect(first.startsWith('0,2025-11-24T')).toBe(true);
    expect(csvCell('=1+1')).toBe("'=1+1");
    expect(csvCell('-2')).toBe("'-2");
    expect(csvCell('a,"b"')).toBe('"a,""b"""');
    expect(csvCell('plain')).toBe('plain');
  });
});
