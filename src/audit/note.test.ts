import { describe, expect, it } from 'vitest';
import { newSeed } from './ed25519.ts';
import {
  formatCheckpoint,
  formatSignerKey,
  formatVerifierKey,
  keyIdOf,
  openNote,
  parseCheckpoint,
  parseSignerKey,
  parseVerifierKey,
  signNote,
  signerFromSeed,
} from './note.ts';

// The reference vector of Go's golang.org/x/mod/sumdb/note, where the C2SP signed-note format comes from.
const PETER_SIGNER = 'PRIVATE+KEY+PeterNeumann+c74f20a3+AYEKFALVFGyNhPJEMzD1QIDr+Y7hfZx09iUvxdXHKDFz';
const PETER_VERIFIER = 'PeterNeumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW';
const PETER_TEXT = "If you think cryptography is the answer to your problem,\nthen you don't know what your problem is.\n";
const PETER_NOTE = `${PETER_TEXT}\n\u2014 PeterNeumann x08go/ZJkuBS9UG/SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FFYC2pZSNXgKvqfqdngotpRZb6KE6RyyBwJnAM=\n`;
const ENOCH_VERIFIER = 'EnochRoot+af0cfe78+ATtqJ7zOtqQtYqOo0CpvDXNlMhV3HeJDpjrASKGLWdop';

describe('signed notes (c2sp.org/signed-note)', () => {
  it('[L3] derives key ids and verifier keys as the reference does', () => {
    const signer = parseSignerKey(PETER_SIGNER);
    expect(formatVerifierKey(signer)).toBe(PETER_VERIFIER);
    expect(formatSignerKey(signer)).toBe(PETER_SIGNER);
    const enoch = parseVerifierKey(ENOCH_VERIFIER);
    expect(keyIdOf(enoch.name, enoch.publicKey).toString('hex')).toBe('af0cfe78');
    expect(formatVerifierKey(enoch)).toBe(ENOCH_VERIFIER);
  });

  it('[L2] signs byte for byte as the reference and opens its note', () => {
    expect(signNote(PETER_TEXT, [parseSignerKey(PETER_SIGNER)])).toBe(PETER_NOTE);
    const opened = openNote(PETER_NOTE, [parseVerifierKey(PETER_VERIFIER)]);
    expect(opened).toMatchObject({ ok: true, text: PETER_TEXT });
  });

  it('[L6] a note signed only by an unknown key, or with a changed text, is refused with the reason', () => {
    expect(openNote(PETER_NOTE, [parseVerifierKey(ENOCH_VERIFIER)])).toMatchObject({ ok: false, problem: 'unknown-key', names: ['PeterNeumann'] });
    const changed = PETER_NOTE.replace('answer', 'Answer');
    expect(openNote(changed, [parseVerifierKey(PETER_VERIFIER)])).toMatchObject({ ok: false, problem: 'bad-signature' });
    expect(openNote(PETER_TEXT, [parseVerifierKey(PETER_VERIFIER)])).toMatchObject({ ok: false, problem: 'malformed' });
  });

  it('[L6] a key with the same name and id but another public key is not the trusted one', () => {
    const mine = signerFromSeed('askdock.test/log', newSeed());
    const note = signNote('hello\n', [mine, signerFromSeed('other', newSeed())]);
    expect(openNote(note, [mine])).toMatchObject({ ok: true });
    const impostor = { ...mine, publicKey: signerFromSeed('x', newSeed()).publicKey };
    expect(openNote(note, [impostor])).toMatchObject({ ok: false, problem: 'bad-signature' });
  });

  it('[L3] refuses malformed keys, naming what is wrong', () => {
    expect(() => parseVerifierKey('PeterNeumann+c74f20a4+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW')).toThrow(/key id c74f20a4 does not match/);
    expect(() => parseVerifierKey('PeterNeumann+C74F20A3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW')).toThrow(/8 lowercase hex/);
    expect(() => parseVerifierKey('PeterNeumann+c74f20a3+AhpjMQ==')).toThrow(/0x01 \(Ed25519\) and 32 bytes/);
    expect(() => parseVerifierKey('Peter Neumann+c74f20a3+ARpc')).toThrow(/no spaces/);
    expect(() => parseVerifierKey('just-a-name')).toThrow(/expected <name>\+<key id>\+<key>/);
  });

  it('[L2] a checkpoint body is origin, size and base64 root, and reads back', () => {
    const root = Buffer.alloc(32, 7);
    const body = formatCheckpoint({ origin: 'askdock.test/log', size: 20852163, root });
    expect(body).toBe(`askdock.test/log\n20852163\n${root.toString('base64')}\n`);
    expect(parseCheckpoint(body)).toEqual({ origin: 'askdock.test/log', size: 20852163, root });
    expect(() => parseCheckpoint('o\n012\nAAAA\n')).toThrow(/no leading zeros/);
    expect(() => parseCheckpoint('o\n12\nAAAA\n')).toThrow(/32 bytes/);
  });
});
