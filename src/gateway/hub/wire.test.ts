import { createServer } from 'node:http';
import type { Duplex } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket, { WebSocketServer } from 'ws';
import { textFrame } from './wire.ts';

describe('textFrame', () => {
  const server = createServer();
  const wss = new WebSocketServer({ noServer: true, perMessageDeflate: false });
  let socket: Duplex;
  let client: WebSocket;
  const received: { text: string; isBinary: boolean }[] = [];

  beforeAll(async () => {
    const accepted = new Promise<void>((ok) =>
      server.on('upgrade', (req, raw: Duplex, head) =>
        wss.handleUpgrade(req, raw, head, () => {
          socket = raw;
          ok();
        }),
      ),
    );
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    const { port } = server.address() as { port: number };
    client = new WebSocket(`ws://127.0.0.1:${port}`);
    client.on('message', (data, isBinary) => received.push({ text: data.toString(), isBinary }));
    await accepted;
    await new Promise((ok) => client.once('open', ok));
  });

  afterAll(async () => {
    client.close();
    wss.close();
    await new Promise((ok) => server.close(ok));
  });

  it('[P1] is read by a standard client as the same text frame, at every length encoding', async () => {
    // 7-bit, 16-bit and 64-bit lengths on both sides of each boundary, and multi-byte UTF-8.
    const texts = [0, 125, 126, 65_535, 65_536, 70_000].map((n) => 'x'.repeat(n));
    texts.push('é'.repeat(63), 'é'.repeat(64), '{"question":"Où déployer ? 🚀"}');
    for (const text of texts) socket.write(textFrame(text));
    await expect.poll(() => received.length).toBe(texts.length);
    expect(received.map((r) => r.isBinary)).toEqual(texts.map(() => false));
    expect(received.map((r) => r.text)).toEqual(texts);
  });
});
