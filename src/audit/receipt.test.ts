import { CompactSign, compactVerify, decodeProtectedHeader } from 'jose';
import { describe, expect, it } from 'vitest';
import { canonicalJson, digestOf } from './canonical.ts';
import { newSeed, publicKeyObject } from './ed25519.ts';
import { signerFromSeed } from './note.ts';
import { ReceiptError, signBuiltReceipt, signReceipt, verifyReceipt, type ReceiptPayload } from './receipt.ts';

const key = signerFromSeed('askdock.test/audit', newSeed());
const other = signerFromSeed('askdock.test/audit', newSeed());
const payload: ReceiptPayload = {
  v: 1,
  iss: 'askdock.test/audit',
  questionId: 'q-1',
  kind: 'approval',
  askedBy: 'integrations',
  agentId: 'claude',
  questionDigest: digestOf({ title: 'Run npm test?' }),
  inputDigest: digestOf({ tool: 'Bash', command: 'npm test' }),
  status: 'answered',
  answersDigest: digestOf(['x']),
  decidedBy: 'person',
  resolvedBy: { identity: 'ana', surface: 'dock', atMs: 1_700_000_000_000 },
  rules: ['npm-tests'],
  entryIndex: 41,
  iat: 1_700_000_000,
};

describe('receipts (compact JWS, EdDSA)', () => {
  it('[L4] jose verifies a receipt made here, with alg EdDSA, the key id as kid and a canonical payload', async () => {
    const jws = signReceipt(payload, key);
    expect(decodeProtectedHeader(jws)).toEqual({ alg: 'EdDSA', kid: key.keyId.toString('hex') });
    const { payload: bytes } = await compactVerify(jws, publicKeyObject(key.publicKey));
    expect(Buffer.from(bytes).toString('utf8')).toBe(canonicalJson(payload));
  });

  it('[L4] a receipt jose signed verifies here', async () => {
    const jws = await new CompactSign(Buffer.from(canonicalJson(payload)))
      .setProtectedHeader({ alg: 'EdDSA', kid: key.keyId.toString('hex') })
      .sign(key.privateKey);
    expect(verifyReceipt(jws, [key])).toMatchObject({ ok: true, payload });
  });

  it('[L4] refuses to put an answer or any unlisted field in a receipt, naming it', () => {
    expect(() => signReceipt({ ...payload, answers: ['rm -rf /'] } as ReceiptPayload, key)).toThrow(/receipt payload \$: .*\(answers\)/);
    expect(() => signReceipt({ ...payload, questionDigest: 'short' }, key)).toThrow(/receipt payload questionDigest: a base64url SHA-256 digest/);
  });

  it('[L6] a receipt with a changed payload, another key or another alg is refused with the reason', async () => {
    const jws = signReceipt(payload, key);
    const [head, , sig] = jws.split('.');
    const forged = `${head}.${Buffer.from(canonicalJson({ ...payload, status: 'denied' })).toString('base64url')}.${sig}`;
    expect(verifyReceipt(forged, [key])).toMatchObject({ ok: false, problem: 'bad-signature' });
    expect(verifyReceipt(jws, [{ ...other, keyId: key.keyId }])).toMatchObject({ ok: false, problem: 'bad-signature' });
    expect(verifyReceipt(signReceipt(payload, other), [key])).toMatchObject({ ok: false, problem: 'unknown-key' });
    const hs = `${Buffer.from('{"alg":"none","kid":"x"}').toString('base64url')}.${jws.split('.')[1]}.${sig}`;
    expect(verifyReceipt(hs, [key])).toMatchObject({ ok: false, problem: 'malformed', detail: 'alg must be EdDSA, got "none"' });
    expect(verifyReceipt('not.a jws', [key])).toMatchObject({ ok: false, problem: 'malformed' });
  });
});

describe('receipts the gateway builds (L4)', () => {
  it('[L4] a built payload is signed to the same bytes as through the full check, and an unlisted field is still refused, naming it', () => {
    expect(signBuiltReceipt(payload, key)).toBe(signReceipt(payload, key));
    expect(() => signBuiltReceipt({ ...payload, answers: ['rm -rf /'] } as ReceiptPayload, key)).toThrow(/receipt payload \$: .*\(answers\)/);
    const resolvedBy = { ...payload.resolvedBy!, text: 'yes' } as ReceiptPayload['resolvedBy'];
    expect(() => signBuiltReceipt({ ...payload, resolvedBy }, key)).toThrow(/\(resolvedBy\.text\)/);
  });

  it('[L4] a value not of its field\'s kind is refused before it is signed, naming the field, wherever the full check refuses it', () => {
    const bad: [string, unknown][] = [
      ['v', 2],
      ['iss', ''],
      ['status', 'maybe'],
      ['decidedBy', 'nobody'],
      ['questionDigest', 'short'],
      ['answersDigest', 42],
      ['entryIndex', 1.5],
      ['iat', -1],
      ['rules', [1]],
      ['resolvedBy', 'ana'],
      ['resolvedBy', { identity: 'ana', surface: 'dock' }],
      ['resolvedBy', { identity: 'ana', surface: 'dock', atMs: '5' }],
    ];
    for (const [field, value] of bad) {
      const built = { ...payload, [field]: value } as ReceiptPayload;
      expect(() => signReceipt(built, key), `${field}: ${JSON.stringify(value)}`).toThrow(ReceiptError);
      expect(() => signBuiltReceipt(built, key), `${field}: ${JSON.stringify(value)}`).toThrow(new RegExp(`^receipt payload ${field}(\\.\\w+)?: `));
    }
    const { questionDigest: _digest, ...noDigest } = payload;
    expect(() => signBuiltReceipt(noDigest as ReceiptPayload, key)).toThrow('receipt payload questionDigest: is required');
  });
});
