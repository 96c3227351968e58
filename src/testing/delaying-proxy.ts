import { Worker } from 'node:worker_threads';

/**
 * A TCP proxy in front of PostgreSQL that holds every chunk `delayMs` before passing it on, both ways: the database
 * one network hop away (a managed PostgreSQL), on this machine. It runs on a thread of its own, so the bench's clients
 * (32 round trips at once, in the bench's thread) never hold up its timers: a chunk waits its hop and no longer.
 */
export async function delayingProxy(port: number, delayMs: number): Promise<{ port: number; close(): Promise<void> }> {
  const worker = new Worker(SERVE, { eval: true, workerData: { port, delayMs } });
  const listening = await new Promise<number>((ok, fail) => {
    worker.once('message', (m: { port: number }) => ok(m.port));
    worker.once('error', fail);
  });
  return {
    port: listening,
    close: async () => {
      await worker.terminate();
    },
  };
}

/** The proxy's thread: plain JavaScript, so it runs as is on a thread without the bench's TypeScript loader. */
const SERVE = `
const { createConnection, createServer } = require('node:net');
const { parentPort, workerData } = require('node:worker_threads');
const { port, delayMs } = workerData;
const pipeDelayed = (from, to) =>
  from.on('data', (chunk) => setTimeout(() => { if (!to.destroyed) to.write(chunk); }, delayMs));
const server = createServer((client) => {
  const upstream = createConnection({ host: '127.0.0.1', port });
  for (const s of [client, upstream]) {
    s.setNoDelay(true);
    s.on('error', () => {});
    s.on('close', () => { client.destroy(); upstream.destroy(); });
  }
  pipeDelayed(client, upstream);
  pipeDelayed(upstream, client);
});
server.listen(0, '127.0.0.1', () => parentPort.postMessage({ port: server.address().port }));
`;
