import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { exportOf } from '../testing/audit-log.ts';
import { readExportDir, writeExportDir } from './export-dir.ts';

let dir: string;
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('export folder (L5)', () => {
  it('[L5] is written only into a new or empty folder, and reads back file for file', () => {
    dir = mkdtempSync(join(tmpdir(), 'askdock-audit-dir-'));
    const { files } = exportOf();
    writeExportDir(join(dir, 'new'), files);
    expect(readExportDir(join(dir, 'new'))).toEqual(files);
    writeFileSync(join(dir, 'notes.txt'), 'mine');
    expect(() => writeExportDir(dir, files)).toThrow(`--out ${dir}: the folder must be new or empty, it holds new, notes.txt`);
    expect(readFileSync(join(dir, 'notes.txt'), 'utf8')).toBe('mine');
  });

  it('[L6] reads regular files only: a link or a folder in the export is not part of it', () => {
    dir = mkdtempSync(join(tmpdir(), 'askdock-audit-dir-'));
    writeFileSync(join(dir, 'secret.txt'), 'outside');
    mkdirSync(join(dir, 'export'));
    symlinkSync(join(dir, 'secret.txt'), join(dir, 'export', 'entries.jsonl'));
    mkdirSync(join(dir, 'export', 'proofs.jsonl'));
    expect([...readExportDir(join(dir, 'export')).keys()]).toEqual([]);
  });
});
