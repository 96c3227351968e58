import WebSocket from 'ws';
import { PROTOCOL_VERSION } from '../../src/protocol/index.ts';

type Res = { type: 'res'; id: string | null; ok: boolean; payload?: any; error?: { code: string; message: string } };
export type EventFrame = { type: 'event'; event: string; payload?: any; seq?: number };

/**
 * A lean operator or agent socket for seeding and timing at scale: no schema checks and requests pipelined, so the
 * figures measure the gateway, not the harness. `onRaw` sees every frame unparsed (listeners only count).
 */
export class RawClient {
  private next = 1;
  private readonly waiting = new Map<string, (f: Res) => void>();
  /** The hello-ok frame as it arrived, and when (performance.now()): its size and time are figures. */
  hello: { bytes: number; at: number } | null = null;
  onRaw: ((data: Buffer) => void) | null = null;
  /** When set, event frames are parsed and handed here (a listener that only counts uses onRaw instead). */
  onEvent: ((f: EventFrame) => void) | null = null;

  private constructor(private readonly ws: WebSocket) {
    ws.on('message', (data: Buffer) => {
      if (this.onRaw) this.onRaw(data);
      const isRes = data.indexOf('"type":"res"') !== -1;
      if (!isRes && !this.onEvent) return;
      const f = JSON.parse(data.toString()) as Res | EventFrame;
      if (f.type === 'event') return void this.onEvent?.(f);
      if (f.id === null) return;
      if (f.id === 'c' && f.ok) this.hello = { bytes: data.length, at: performance.now() };
      const done = this.waiting.get(f.id);
      this.waiting.delete(f.id);
      done?.(f);
    });
  }

  static async connect(wsUrl: string, token: string, mode: 'ui' | 'agent' | 'cli', name = 'bench-raw'): Promise<RawClient> {
    const ws = new WebSocket(wsUrl);
    await new Promise((ok, fail) => (ws.once('open', ok), ws.once('error', fail)));
    const c = new RawClient(ws);
    const client = { id: `${name}-${Math.random().toString(36).slice(2)}`, name, version: '0', platform: 'node', mode };
    const hello = await c.call('connect', { minProtocol: PROTOCOL_VERSION, maxProtocol: PROTOCOL_VERSION, client, auth: { token } }, 'c');
    if (!hello.ok) throw new Error(`connect refused: ${JSON.stringify(hello.error)}`);
    return c;
  }

  call(method: string, params: unknown, id = String(this.next++)): Promise<Res> {
    return new Promise((ok) => {
      this.waiting.set(id, ok);
      this.ws.send(JSON.stringify({ type: 'req', id, method, params }));
    });
  }

  async ok(method: string, params: unknown): Promise<any> {
    const f = await this.call(method, params);
    if (!f.ok) throw new Error(`${method}: ${JSON.stringify(f.error)}`);
    return f.payload;
  }

  /** Bytes of the response frame to `method`, and the time it took (ms). */
  async timed(method: string, params: unknown): Promise<{ ms: number; bytes: number }> {
    const id = `t${this.next++}`;
    let bytes = 0;
    const onRaw = this.onRaw;
    this.onRaw = (data) => {
      onRaw?.(data);
      if (data.indexOf(`"id":"${id}"`) !== -1) bytes = data.length;
    };
    const t0 = performance.now();
    const f = await this.call(method, params, id);
    const ms = performance.now() - t0;
    this.onRaw = onRaw;
    if (!f.ok) throw new Error(`${method}: ${JSON.stringify(f.error)}`);
    return { ms, bytes };
  }

  /** A request whose answer nobody waits for. */
  send(method: string, params: unknown): void {
    this.ws.send(JSON.stringify({ type: 'req', id: `f${this.next++}`, method, params }));
  }

  close(): void {
    this.ws.terminate();
  }
}
