import { closeSync, existsSync, lstatSync, mkdirSync, openSync, readdirSync, readFileSync, statSync, writeSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { ExportFiles } from './export-format.ts';
import { ExportError } from './export.ts';

/** A file bigger than this is not read whole (an export of 100,000 entries is some tens of MB). */
const MAX_FILE_BYTES = 1 << 30;

/** L5: refuses a folder that is neither new nor empty, naming what it holds. */
export function checkExportDirFree(dir: string): void {
  const path = resolve(dir);
  if (!existsSync(path)) return;
  if (!statSync(path).isDirectory()) throw new ExportError(`--out ${path}: not a folder; give a new or empty folder`);
  const present = readdirSync(path);
  if (present.length) throw new ExportError(`--out ${path}: the folder must be new or empty, it holds ${present.slice(0, 3).join(', ')}${present.length > 3 ? ', …' : ''}`);
}

/** L5: writes an export's files into a folder that is new or empty; never over anything already there. */
export function writeExportDir(dir: string, files: ExportFiles): void {
  const path = resolve(dir);
  mkdirSync(path, { recursive: true });
  checkExportDirFree(path);
  for (const [name, text] of files) {
    const fd = openSync(join(path, name), 'wx', 0o644);
    try {
      writeSync(fd, text);
    } finally {
      closeSync(fd);
    }
  }
}

/** Reads the regular files at the top of an export folder (links and folders are not part of an export). */
export function readExportDir(dir: string): ExportFiles {
  const path = resolve(dir);
  const files: ExportFiles = new Map();
  for (const name of readdirSync(path)) {
    const stat = lstatSync(join(path, name));
    if (!stat.isFile()) continue;
    if (stat.size > MAX_FILE_BYTES) throw new ExportError(`${name}: ${stat.size} bytes is more than an export file may be`);
    files.set(name, readFileSync(join(path, name), 'utf8'));
  }
  return files;
}
