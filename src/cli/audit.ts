/**
 * `askdock audit verify DIR --key KEY [--receipt FILE]` (L6): checks an export offline, with nothing but the gateway's
 * public key. Exit 0 valid, 1 tampered, 2 incomplete, 3 bad usage.
 * `askdock audit key [--db FILE|postgres://…] [--config FILE] [--key-file FILE] [--rotate]` (L3): prints the verifier
 * keys of the gateway's data folder, one a line; `--rotate` first adds a new signing key. Exit 0 printed, 1 no key, 2 bad usage.
 */
import { existsSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, isAbsolute } from 'node:path';
import { parseArgs } from 'node:util';
import { readExportDir } from '../audit/export-dir.ts';
import { AuditConfig, auditKeyFileIn, keysFromConfig, readKeyFileIfAny, rotateKeyFile, type DatedKey } from '../audit/keys.ts';
import { formatVerifierKey, parseVerifierKey, type VerifierKey } from '../audit/note.ts';
import { verifyExport, type Problem } from '../audit/verify.ts';
import { terminalText } from '../lib/terminal-text.ts';
import { acknowledgeCommand, exportCommand, EXPORT_USAGE } from './audit-export.ts';

export const AUDIT_USAGE = [
  'usage: askdock audit verify DIR --key KEY [--receipt FILE]',
  '         KEY: a verifier key as `askdock audit key` prints it, or a file of them (one a line, or the JSON of /.well-known/askdock/audit-keys)',
  '         exit: 0 valid, 1 tampered, 2 incomplete (a gap, a missing proof, an unknown key), 3 bad usage',
  '       askdock audit key [--db FILE|postgres://…] [--config FILE] [--key-file FILE] [--rotate]',
  '         prints the verifier keys of the gateway\'s audit key file (./.askdock/audit.key unless told), one a line;',
  '         --rotate adds a new signing key first (the gateway uses it from its next start; the old keys stay listed)',
].join('\n');

type Io = { out: (line: string) => void; err: (line: string) => void };
const stdio: Io = { out: (l) => process.stdout.write(l + '\n'), err: (l) => process.stderr.write(l + '\n') };

export async function run(argv: string[], io: Io = stdio): Promise<number> {
  const [action, ...rest] = argv;
  // Each action's own --help (before any `--`) prints its usage instead of refusing it as an unknown option.
  const flags = rest.includes('--') ? rest.slice(0, rest.indexOf('--')) : rest;
  if ((flags.includes('--help') || flags.includes('-h')) && action && ['verify', 'key', 'export', 'acknowledge'].includes(action)) {
    io.out(action === 'verify' || action === 'key' ? AUDIT_USAGE : EXPORT_USAGE);
    return 0;
  }
  if (action === 'verify') return verifyCommand(rest, io);
  if (action === 'key') return keyCommand(rest, io);
  if (action === 'export') return exportCommand(rest);
  if (action === 'acknowledge') return acknowledgeCommand(rest);
  if (action === '--help' || action === '-h' || action === 'help') {
    io.out(`${AUDIT_USAGE}\n${EXPORT_USAGE}`);
    return 0;
  }
  io.err(`askdock audit: ${action ? `unknown action "${action}"` : 'missing action'}: verify, key, export or acknowledge\n${AUDIT_USAGE}`);
  return 2;
}

const inside = (dir: string, file: string) => {
  const rel = relative(realpathSync(dir), realpathSync(file));
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
};

/** `--key` as a verifier key, or a file of them: never a file inside the export (its keys are never trusted on their own). */
function trustedKeys(arg: string, dir: string): VerifierKey[] {
  if (!existsSync(arg)) return [parseVerifierKey(arg)];
  if (inside(dir, arg)) throw new Error(`--key ${arg}: a key file inside the export is never trusted on its own; give the key you got from the gateway (askdock audit key, or /.well-known/askdock/audit-keys)`);
  const text = readFileSync(arg, 'utf8');
  if (text.trimStart().startsWith('{')) {
    const doc = JSON.parse(text) as { keys?: { verifierKey?: unknown }[] };
    return (doc.keys ?? []).map((k, i) => {
      if (typeof k.verifierKey !== 'string') throw new Error(`--key ${arg}: keys[${i}].verifierKey is missing`);
      return parseVerifierKey(k.verifierKey);
    });
  }
  return text.split('\n').filter((l) => l.trim() && !l.startsWith('#')).map((l) => parseVerifierKey(l));
}

const where = (p: Problem) => [p.file, p.line !== undefined ? `line ${p.line}` : '', p.entryIndex !== undefined ? `entry ${p.entryIndex}` : ''].filter(Boolean).join(', ');

function verifyCommand(argv: string[], io: Io): number {
  let dir: string;
  let keys: VerifierKey[];
  let receipt: { file: string; text: string } | undefined;
  try {
    const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, strict: true, options: { key: { type: 'string' }, receipt: { type: 'string' } } });
    if (positionals.length !== 1) throw new Error('DIR: give exactly one export folder');
    dir = positionals[0];
    if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new Error(`DIR: ${dir} is not a folder`);
    if (!values.key) throw new Error('--key: required; the export\'s own keys.json is never trusted on its own');
    keys = trustedKeys(values.key, dir);
    if (keys.length === 0) throw new Error(`--key ${values.key}: holds no key`);
    if (values.receipt) receipt = { file: values.receipt, text: readFileSync(values.receipt, 'utf8') };
  } catch (err) {
    io.err(`askdock audit verify: ${terminalText((err as Error).message)}\n${AUDIT_USAGE}`);
    return 3;
  }
  let result;
  try {
    result = verifyExport(readExportDir(dir), keys, receipt);
  } catch (err) {
    io.out(`incomplete: ${terminalText((err as Error).message)}`);
    return 2;
  }
  if (result.exit !== 0) {
    const word = result.exit === 1 ? 'tampered' : 'incomplete';
    io.out(`${word}: ${terminalText(where(result.problem))}: ${terminalText(result.problem.detail)}`);
    return result.exit;
  }
  const s = result.summary;
  const range = s.entries ? `entries ${s.first}..${s.last} (${s.entries})` : 'no entries';
  io.out(`valid: ${range} of a log of ${s.treeSize}, ${s.checkpoints} checkpoints, signed by ${terminalText(s.signedBy)}`);
  if (s.answers) io.out(`answers: ${s.answers} match their entries' digests`);
  if (s.receipt) io.out(terminalText(s.receipt));
  return 0;
}

const isPostgres = (db: string) => /^postgres(ql)?:\/\//.test(db);

/** The data folder as `askdock gateway` picks it: beside the SQLite file, beside the config on PostgreSQL, else ./.askdock. */
export function auditKeyFileOf(flags: { db?: string; config?: string; keyFile?: string }): string {
  if (flags.keyFile) return resolve(flags.keyFile);
  if (flags.db && !isPostgres(flags.db) && flags.db !== ':memory:') return auditKeyFileIn(dirname(resolve(flags.db)));
  if (flags.db && flags.config) return auditKeyFileIn(dirname(resolve(flags.config)));
  return auditKeyFileIn('./.askdock');
}

function keyCommand(argv: string[], io: Io): number {
  let flags: { db?: string; config?: string; keyFile?: string; rotate?: boolean };
  try {
    const options = { db: { type: 'string' }, config: { type: 'string' }, 'key-file': { type: 'string' }, rotate: { type: 'boolean' } } as const;
    const { values } = parseArgs({ args: argv, strict: true, options });
    flags = { db: values.db, config: values.config, keyFile: values['key-file'], rotate: values.rotate };
  } catch (err) {
    io.err(`askdock audit key: ${(err as Error).message}\n${AUDIT_USAGE}`);
    return 2;
  }
  let keys: DatedKey[] | undefined;
  const file = auditKeyFileOf(flags);
  try {
    if (flags.rotate) {
      if (!readKeyFileIfAny(file)) throw new Error(`--rotate: no audit key in ${file} to rotate`);
      rotateKeyFile(file, new Date());
    } else if (flags.config) {
      const raw = JSON.parse(readFileSync(flags.config, 'utf8')) as { audit?: unknown };
      if (raw.audit !== undefined) keys = keysFromConfig(AuditConfig.parse(raw.audit));
    }
    keys ??= readKeyFileIfAny(file);
  } catch (err) {
    io.err(`askdock audit key: ${(err as Error).message.split('\n')[0]}`);
    return 1;
  }
  if (!keys) {
    io.err(`askdock audit key: no audit key in ${file}: the gateway makes it on its first start (or give audit.keys in the config)`);
    return 1;
  }
  for (const key of keys) io.out(formatVerifierKey(key));
  return 0;
}
