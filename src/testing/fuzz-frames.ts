import { METHOD_NAMES } from '../protocol/index.ts';

/** A small seeded PRNG (mulberry32): the same seed gives the same frames on every machine. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export type FuzzFrame = { data: string | Buffer; binary: boolean; kind: string };

const NASTY_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf', ''];
const NASTY_NUMBERS = ['1e308', '-1e308', '1e400', '-0', '9007199254740993', '123456789012345678901234567890', '0.0000000000000000001', '-1'];
const NASTY_STRINGS = ['', ' ', '\u0000', '\ud800', '💥'.repeat(50), '<script>alert(1)</script>', '../../etc/passwd', 'a'.repeat(70_000), '%00', '${x}', '\\'];

/** Frames a careless or hostile client might send: every kind S5 names, plus valid shapes with mutated params. */
export class FrameFuzzer {
  private readonly rnd: () => number;
  private n = 0;

  constructor(
    seed: number,
    /** Oversize frames are `maxPayload + 1` bytes or more. */
    private readonly maxPayload: number,
  ) {
    this.rnd = prng(seed);
  }

  private int(max: number): number {
    return Math.floor(this.rnd() * max);
  }

  private pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)];
  }

  /** A JSON text for a random value, up to `depth` levels, with nasty keys and numbers written out as text. */
  value(depth = 3): string {
    const r = this.int(10);
    if (depth <= 0 || r < 3) return this.scalar();
    if (r < 6) return `[${Array.from({ length: this.int(5) }, () => this.value(depth - 1)).join(',')}]`;
    const keys = Array.from({ length: this.int(6) }, () => (this.rnd() < 0.3 ? this.pick(NASTY_KEYS) : this.pick(['id', 'sessionKey', 'questions', 'answers', 'message', 'timeoutMs', 'runId', 'x'])));
    return `{${keys.map((k) => `${JSON.stringify(k)}:${this.value(depth - 1)}`).join(',')}}`;
  }

  private scalar(): string {
    const r = this.int(6);
    if (r === 0) return this.pick(NASTY_NUMBERS);
    if (r === 1) return JSON.stringify(this.pick(NASTY_STRINGS));
    if (r === 2) return this.pick(['true', 'false', 'null']);
    if (r === 3) return String(this.int(1000) - 500);
    return JSON.stringify(`s${this.int(1_000_000)}`);
  }

  private request(params: string): string {
    const id = this.rnd() < 0.1 ? this.value(1) : JSON.stringify(`f${this.n}`);
    return `{"type":"req","id":${id},"method":${JSON.stringify(this.pick(METHOD_NAMES))},"params":${params}}`;
  }

  next(): FuzzFrame {
    this.n++;
    const r = this.int(1000);
    if (r < 2) return { kind: 'oversize', binary: false, data: `{"type":"req","id":"big","method":"chat.send","params":{"message":"${'x'.repeat(this.maxPayload + 1)}"}}` };
    if (r < 60) return { kind: 'binary', binary: true, data: Buffer.from(Array.from({ length: 1 + this.int(64) }, () => this.int(256))) };
    if (r < 160) return { kind: 'not-json', binary: false, data: this.pick(['{', '}', '{"type":"req"', 'nul', '[1,2', '"', '\u0000', '{"a":1,}', String.fromCharCode(...Array.from({ length: 1 + this.int(40) }, () => this.int(0xd7ff)))]) };
    if (r < 260) return { kind: 'wrong-type', binary: false, data: this.value(2) };
    if (r < 330) {
      const depth = 1000 + this.int(20_000);
      const [open, close] = this.rnd() < 0.5 ? ['[', ']'] : ['{"a":', '}'];
      return { kind: 'deep', binary: false, data: `${this.request(`${open.repeat(depth)}1${close.repeat(depth)}`)}` };
    }
    if (r < 420) return { kind: 'huge-number', binary: false, data: this.request(`{"timeoutMs":${this.pick(NASTY_NUMBERS)},"limit":${this.pick(NASTY_NUMBERS)},"id":${this.pick(NASTY_NUMBERS)}}`) };
    if (r < 520) return { kind: 'proto', binary: false, data: this.request(`{"__proto__":{"admin":true,"scopes":["operator.admin"]},"constructor":{"prototype":{"x":1}},"title":"p"}`) };
    if (r < 560) return { kind: 'cancel', binary: false, data: `{"type":"cancel","id":${this.value(1)}}` };
    if (r < 600) return { kind: 'connect', binary: false, data: `{"type":"req","id":"c${this.n}","method":"connect","params":${this.value(3)}}` };
    return { kind: 'mutated-request', binary: false, data: this.request(this.value(4)) };
  }
}
