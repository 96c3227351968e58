/**
 * A WebSocket relay in front of a gateway for tests: passes every frame both ways as it is and counts the requests
 * clients send by method, so a test can compare the work a client asked of the gateway (e.g. how often it asked).
 */
import WebSocket, { WebSocketServer, type RawData } from 'ws';

export type CountingRelay = {
  /** ws://127.0.0.1:N/ws: connect here instead of the gateway. */
  url: string;
  /** Requests seen so far, by method. */
  sent(method: string): number;
  close(): Promise<void>;
};

export async function countingRelay(gatewayUrl: string): Promise<CountingRelay> {
  const counts = new Map<string, number>();
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0, path: '/ws' });
  await new Promise<void>((ok) => server.once('listening', () => ok()));
  server.on('connection', (client) => {
    const upstream = new WebSocket(gatewayUrl);
    const early: RawData[] = [];
    client.on('message', (data, binary) => {
      try {
        const method = (JSON.parse(data.toString()) as { method?: unknown }).method;
        if (typeof method === 'string') counts.set(method, (counts.get(method) ?? 0) + 1);
      } catch {
        // Not JSON: passed on as it is.
      }
      if (upstream.readyState === WebSocket.OPEN) upstream.send(data, { binary });
      else early.push(data);
    });
    upstream.on('open', () => {
      for (const data of early.splice(0)) upstream.send(data, { binary: false });
    });
    upstream.on('message', (data, binary) => client.send(data, { binary }));
    const closeBoth = () => {
      client.close();
      upstream.close();
    };
    client.on('close', closeBoth);
    upstream.on('close', closeBoth);
    client.on('error', closeBoth);
    upstream.on('error', closeBoth);
  });
  const port = (server.address() as { port: number }).port;
  return {
    url: `ws://127.0.0.1:${port}/ws`,
    sent: (method) => counts.get(method) ?? 0,
    close: () =>
      new Promise<void>((ok) => {
        for (const c of server.clients) c.terminate();
        server.close(() => ok());
      }),
  };
}
