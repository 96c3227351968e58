import { chmodSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDirs } from '../testing/temp-dirs.ts';
import {
  AuditConfig,
  auditKeyFileIn,
  auditKeysDocument,
  keysFromConfig,
  loadOrCreateKeyFile,
  readKeyFileIfAny,
  rotateKeyFile,
  signerOf,
} from './keys.ts';
import { formatSignerKey, openNote, parseVerifierKey, signNote } from './note.ts';

const tempDir = tempDirs('askdock-audit-keys-');
const now = new Date('2026-12-01T10:00:00.000Z');

describe('audit keys (L3)', () => {
  it('[L3] the key file is made on first start, readable by its owner only, and the same key is loaded next time', () => {
    const file = auditKeyFileIn(join(tempDir(), 'data'));
    const first = loadOrCreateKeyFile(file, { origin: 'askdock.test/log', now });
    expect(first.created).toBe(true);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const again = loadOrCreateKeyFile(file, { now: new Date() });
    expect(again.created).toBe(false);
    expect(again.keys.map((k) => formatSignerKey(k))).toEqual(first.keys.map((k) => formatSignerKey(k)));
    expect(signerOf(again.keys)).toMatchObject({ name: 'askdock.test/log', validFrom: '2026-12-01T10:00:00.000Z' });
  });

  it('[L3] a key file others can read is refused, naming the file and the fix', () => {
    const file = auditKeyFileIn(tempDir());
    loadOrCreateKeyFile(file, { now });
    chmodSync(file, 0o644);
    expect(() => loadOrCreateKeyFile(file, { now })).toThrow(`the audit key file ${file} can be read by others (mode 0644): run chmod 600 ${file}`);
  });

  it('[L3] a damaged key file is refused with the field named, never replaced', () => {
    const file = auditKeyFileIn(tempDir());
    writeFileSync(file, JSON.stringify({ v: 1, keys: [{ signerKey: 'PRIVATE+KEY+x+00000000+AAAA', validFrom: now.toISOString() }] }), { mode: 0o600 });
    expect(() => loadOrCreateKeyFile(file, { now })).toThrow(/keys\[0\]\.signerKey: signer key "x\+00000000\+AAAA": the key must be 0x01/);
    writeFileSync(file, '{"v":1,"keys":[]}');
    expect(() => loadOrCreateKeyFile(file, { now })).toThrow(/keys: /);
    expect(readFileSync(file, 'utf8')).toBe('{"v":1,"keys":[]}');
  });

  it('[L3] keys given in the config are used as given; a bad one names its place', () => {
    const signerKey = 'PRIVATE+KEY+PeterNeumann+c74f20a3+AYEKFALVFGyNhPJEMzD1QIDr+Y7hfZx09iUvxdXHKDFz';
    const config = AuditConfig.parse({ keys: [{ signerKey, validFrom: '2026-01-01T00:00:00Z' }] });
    const keys = keysFromConfig(config);
    expect(keys?.map((k) => k.keyId.toString('hex'))).toEqual(['c74f20a3']);
    expect(() => keysFromConfig({ keys: [{ signerKey: 'nope', validFrom: '2026-01-01T00:00:00Z' }] })).toThrow(
      'config audit.keys[0].signerKey: signer key: must start with PRIVATE+KEY+',
    );
    expect(AuditConfig.safeParse({ origin: 'has space' }).success).toBe(false);
  });

  it('[L3] rotation adds a signer; the old key still verifies what it signed', () => {
    const file = auditKeyFileIn(tempDir());
    const [old] = loadOrCreateKeyFile(file, { origin: 'askdock.test/log', now }).keys;
    const note = signNote('askdock.test/log\n1\nAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=\n', [old]);
    const keys = rotateKeyFile(file, new Date('2026-12-02T00:00:00.000Z'));
    expect(keys).toHaveLength(2);
    expect(signerOf(keys).keyId.equals(old.keyId)).toBe(false);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(openNote(note, readKeyFileIfAny(file) ?? [])).toMatchObject({ ok: true });
  });

  it('[L3] the audit-keys document lists each key with its verifier key, base64 public key and validFrom', () => {
    const file = auditKeyFileIn(tempDir());
    const { keys } = loadOrCreateKeyFile(file, { origin: 'askdock.test/log', now });
    const doc = auditKeysDocument(keys);
    expect(Object.keys(doc.keys[0]).sort()).toEqual(['keyId', 'name', 'publicKey', 'validFrom', 'verifierKey']);
    const [entry] = doc.keys;
    expect(entry).toMatchObject({ name: 'askdock.test/log', keyId: keys[0].keyId.toString('hex'), validFrom: '2026-12-01T10:00:00.000Z' });
    expect(Buffer.from(entry.publicKey, 'base64')).toHaveLength(32);
    const parsed = parseVerifierKey(entry.verifierKey);
    expect(parsed.publicKey.toString('base64')).toBe(entry.publicKey);
    expect(JSON.stringify(doc)).not.toContain('PRIVATE');
  });
});
