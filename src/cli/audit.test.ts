import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDirs } from '../testing/temp-dirs.ts';
import { writeExportDir } from '../audit/export-dir.ts';
import { auditKeyFileIn, loadOrCreateKeyFile } from '../audit/keys.ts';
import { formatVerifierKey } from '../audit/note.ts';
import { exportOf, receiptFor } from '../testing/audit-log.ts';
import { run } from './audit.ts';

const temp = tempDirs('askdock-audit-cli-');

async function askdockAudit(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await run(argv, { out: (l) => out.push(l), err: (l) => err.push(l) });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

function exportDir() {
  const made = exportOf();
  const dir = join(temp(), 'export');
  writeExportDir(dir, made.files);
  return { ...made, dir, key: formatVerifierKey(made.signer) };
}

describe('askdock audit verify (L6)', () => {
  it('[L6] prints valid and exits 0 with only the public key; a receipt is checked against its entry', async () => {
    const { dir, key, log, signer } = exportDir();
    expect(await askdockAudit('verify', dir, '--key', key)).toMatchObject({ code: 0, out: expect.stringMatching(/^valid: entries 0\.\.11 \(12\) of a log of 12, 3 checkpoints, signed by askdock\.test\/audit \([0-9a-f]{8}\)\nanswers: 6 match/) });
    const receipt = join(temp(), 'receipt.jws');
    writeFileSync(receipt, receiptFor(log.entries[3], signer));
    expect(await askdockAudit('verify', dir, '--key', key, '--receipt', receipt)).toMatchObject({ code: 0, out: expect.stringContaining('matches entry 3') });
  });

  it('[L6] a changed byte: prints which entry is wrong and exits 1', async () => {
    const { dir, key } = exportDir();
    const file = join(dir, 'entries.jsonl');
    writeFileSync(file, readFileSync(file, 'utf8').replace('"q-2"', '"q-9"'));
    expect(await askdockAudit('verify', dir, '--key', key)).toMatchObject({ code: 1, out: expect.stringMatching(/^tampered: entries\.jsonl, line 5, entry 4: /) });
  });

  it('[L6] keys come from outside the export: a file of them works, the export\'s own keys.json is bad usage (3)', async () => {
    const { dir, key } = exportDir();
    const keyFile = join(temp(), 'trusted.keys');
    writeFileSync(keyFile, `# from askdock audit key\n${key}\n`);
    expect((await askdockAudit('verify', dir, '--key', keyFile)).code).toBe(0);
    const own = await askdockAudit('verify', dir, '--key', join(dir, 'keys.json'));
    expect(own).toMatchObject({ code: 3, err: expect.stringContaining('a key file inside the export is never trusted on its own') });
  });

  it('[L6] bad usage exits 3 naming what is wrong', async () => {
    const { dir } = exportDir();
    expect(await askdockAudit('verify', dir)).toMatchObject({ code: 3, err: expect.stringContaining('--key: required') });
    expect(await askdockAudit('verify', join(dir, 'nope'), '--key', 'x')).toMatchObject({ code: 3, err: expect.stringContaining('is not a folder') });
    expect(await askdockAudit('verify', dir, '--key', 'not-a-key')).toMatchObject({ code: 3, err: expect.stringContaining('verifier key "not-a-key"') });
  });
});

describe('askdock audit --help', () => {
  it('[L6][L3][L5] each action\'s --help prints its usage and exits 0', async () => {
    for (const action of ['verify', 'key']) expect(await askdockAudit(action, '--help')).toMatchObject({ code: 0, out: expect.stringContaining('usage: askdock audit verify DIR --key KEY'), err: '' });
    for (const action of ['export', 'acknowledge']) expect(await askdockAudit(action, '-h')).toMatchObject({ code: 0, out: expect.stringContaining('usage: askdock audit export'), err: '' });
  });
});

describe('askdock audit key (L3)', () => {
  it('[L3] prints the verifier key of the data folder beside the database, one a line', async () => {
    const data = temp();
    const { keys } = loadOrCreateKeyFile(auditKeyFileIn(data), { origin: 'askdock.test/log', now: new Date() });
    expect(await askdockAudit('key', '--db', join(data, 'askdock.db'))).toEqual({ code: 0, out: formatVerifierKey(keys[0]), err: '' });
  });

  it('[L3] keys given in the config are printed; no key at all says where it looked and exits 1', async () => {
    const config = join(temp(), 'config.json');
    const signerKey = 'PRIVATE+KEY+PeterNeumann+c74f20a3+AYEKFALVFGyNhPJEMzD1QIDr+Y7hfZx09iUvxdXHKDFz';
    writeFileSync(config, JSON.stringify({ identities: [], audit: { keys: [{ signerKey, validFrom: '2026-01-01T00:00:00Z' }] } }));
    expect(await askdockAudit('key', '--config', config)).toMatchObject({ code: 0, out: 'PeterNeumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW' });
    const empty = temp();
    expect(await askdockAudit('key', '--db', join(empty, 'askdock.db'))).toMatchObject({ code: 1, err: expect.stringContaining(`no audit key in ${join(empty, 'audit.key')}`) });
  });

  it('[L3] --rotate adds a signing key to the key file and prints old and new', async () => {
    const data = temp();
    const { keys } = loadOrCreateKeyFile(auditKeyFileIn(data), { origin: 'askdock.test/log', now: new Date() });
    const rotated = await askdockAudit('key', '--key-file', auditKeyFileIn(data), '--rotate');
    expect(rotated.code).toBe(0);
    const lines = rotated.out.split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toBe(formatVerifierKey(keys[0]));
    expect(lines[1]).toMatch(/^askdock\.test\/log\+[0-9a-f]{8}\+/);
    expect(lines[1]).not.toBe(lines[0]);
    expect((await askdockAudit('key', '--key-file', join(temp(), 'none.key'), '--rotate')).code).toBe(1);
  });
});
