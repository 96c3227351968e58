import { createECDH, createDecipheriv, createPublicKey, hkdfSync, randomBytes, verify } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A browser push service on loopback for U17's tests: it checks each push's VAPID JWT (RFC 8292: ES256 signature by the
 * key in `k=`, audience = its own origin, not expired) and decrypts the RFC 8291 aes128gcm body with the subscription's
 * private key, as a browser would; it answers what the test scripted for that subscription (201 by default).
 */

export type Received = {
  subscription: string;
  atMs: number;
  ttl: string | undefined;
  urgency: string | undefined;
  /** The VAPID public key the push was signed with (base64url). */
  vapidKey: string;
  /** The decrypted payload, parsed; null when it did not decrypt or verify (also in `problems`). */
  payload: unknown;
};
export type Reply = { status: number; retryAfter?: string };

const b64u = (buf: Buffer) => buf.toString('base64url');

/** What a browser holds for one subscription: the private key of `p256dh` and the auth secret. */
export class FakeSubscriber {
  readonly ecdh = createECDH('prime256v1');
  readonly authSecret = randomBytes(16);
  constructor(
    readonly name: string,
    readonly endpoint: string,
  ) {
    this.ecdh.generateKeys();
  }

  toJSON() {
    return { endpoint: this.endpoint, expirationTime: null, keys: { p256dh: b64u(this.ecdh.getPublicKey()), auth: b64u(this.authSecret) } };
  }

  /** RFC 8291 §3.4 and RFC 8188: one aes128gcm record, sender key in the header's key id. */
  decrypt(body: Buffer): Buffer {
    const salt = body.subarray(0, 16);
    const idLen = body[20];
    const senderKey = body.subarray(21, 21 + idLen);
    const ciphertext = body.subarray(21 + idLen);
    const ecdhSecret = this.ecdh.computeSecret(senderKey);
    const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), this.ecdh.getPublicKey(), senderKey]);
    const ikm = Buffer.from(hkdfSync('sha256', ecdhSecret, this.authSecret, keyInfo, 32));
    const cek = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16));
    const nonce = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12));
    const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
    decipher.setAuthTag(ciphertext.subarray(ciphertext.length - 16));
    const padded = Buffer.concat([decipher.update(ciphertext.subarray(0, ciphertext.length - 16)), decipher.final()]);
    let end = padded.length - 1;
    while (end >= 0 && padded[end] === 0) end--;
    if (padded[end] !== 2) throw new Error('the last record does not end with the 0x02 delimiter');
    return padded.subarray(0, end);
  }
}

/** Checks an RFC 8292 `Authorization: vapid t=<jwt>, k=<key>` header; returns the key, or throws naming the fault. */
export function checkVapid(header: string | undefined, audience: string, nowMs: number): string {
  const m = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(header ?? '');
  if (!m) throw new Error(`no vapid Authorization header: ${header}`);
  const [jwt, key] = [m[1], m[2]];
  const [head, claims, sig] = jwt.split('.');
  if (JSON.parse(Buffer.from(head, 'base64url').toString()).alg !== 'ES256') throw new Error('the JWT is not ES256');
  const point = Buffer.from(key, 'base64url');
  const publicKey = createPublicKey({
    key: { kty: 'EC', crv: 'P-256', x: b64u(point.subarray(1, 33)), y: b64u(point.subarray(33, 65)) },
    format: 'jwk',
  });
  const signed = verify('sha256', Buffer.from(`${head}.${claims}`), { key: publicKey, dsaEncoding: 'ieee-p1363' }, Buffer.from(sig, 'base64url'));
  if (!signed) throw new Error('the JWT signature does not verify with k');
  const body = JSON.parse(Buffer.from(claims, 'base64url').toString()) as { aud?: string; exp?: number; sub?: string };
  if (body.aud !== audience) throw new Error(`the JWT audience is ${body.aud}, not ${audience}`);
  if (!body.exp || body.exp * 1000 < nowMs || body.exp * 1000 > nowMs + 24 * 3600 * 1000 + 60_000) throw new Error(`bad JWT exp ${body.exp}`);
  if (!body.sub || !/^(mailto:|https:)/.test(body.sub)) throw new Error(`bad JWT sub ${body.sub}`);
  return key;
}

export class FakePushService {
  readonly received: Received[] = [];
  /** Every request, also those answered with an error (for retry counts). */
  readonly requests: { subscription: string; atMs: number }[] = [];
  readonly problems: string[] = [];
  private readonly subscribers = new Map<string, FakeSubscriber>();
  private readonly scripts = new Map<string, Reply[]>();
  private server!: Server;
  origin = '';

  static async start(): Promise<FakePushService> {
    const fake = new FakePushService();
    fake.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const name = (req.url ?? '').replace(/^\/push\//, '');
        const sub = fake.subscribers.get(name);
        const atMs = Date.now();
        fake.requests.push({ subscription: name, atMs });
        const reply = fake.scripts.get(name)?.shift() ?? { status: 201 };
        if (sub && reply.status === 201) fake.accept(sub, req.headers, Buffer.concat(chunks), atMs);
        res.writeHead(sub ? reply.status : 404, reply.retryAfter !== undefined ? { 'retry-after': reply.retryAfter } : {}).end();
      });
    });
    await new Promise<void>((ok) => fake.server.listen(0, '127.0.0.1', ok));
    fake.origin = `http://127.0.0.1:${(fake.server.address() as AddressInfo).port}`;
    return fake;
  }

  private accept(sub: FakeSubscriber, headers: Record<string, string | string[] | undefined>, body: Buffer, atMs: number): void {
    let payload: unknown = null;
    let vapidKey = '';
    try {
      if (headers['content-encoding'] !== 'aes128gcm') throw new Error(`content-encoding ${String(headers['content-encoding'])}`);
      vapidKey = checkVapid(headers.authorization as string | undefined, this.origin, atMs);
      payload = JSON.parse(sub.decrypt(body).toString('utf8'));
    } catch (err) {
      this.problems.push(`${sub.name}: ${(err as Error).message}`);
    }
    this.received.push({ subscription: sub.name, atMs, ttl: headers.ttl as string | undefined, urgency: headers.urgency as string | undefined, vapidKey, payload });
  }

  subscriber(name: string): FakeSubscriber {
    const sub = new FakeSubscriber(name, `${this.origin}/push/${name}`);
    this.subscribers.set(name, sub);
    return sub;
  }

  /** The next replies for `name`'s pushes, in order; 201 once they are used up. */
  script(name: string, ...replies: Reply[]): void {
    this.scripts.set(name, replies);
  }

  to(name: string): Received[] {
    return this.received.filter((r) => r.subscription === name);
  }

  close(): Promise<void> {
    return new Promise((done) => this.server.close(() => done()));
  }
}
