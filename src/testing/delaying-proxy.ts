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
// A timer may fire a little before its delay by the clock (its start is the loop's cached time), so each chunk carries
// the instant it is due and waits again until then: a hop is never shorter than delayMs. One queue per direction keeps
// the chunks in order.
const pipeDelayed = (from, to) => {
  const queue = [];
  let armed = false;
  const pump = () => {
    armed = false;
    const now = performance.now();
    while (queue.length > 0 && queue[0].due <= now) {
      const { chunk } = queue.shift();
      if (!to.destroyed) to.write(chunk);
    }
    if (queue.length > 0) arm(queue[0].due - now);
  };
  const arm = (ms) => {
    if (armed) return;
    armed = true;
    setTimeout(pump, Math.max(0, Math.ceil(ms)));
  };
  from.on('data', (chunk) => {
    queue.push({ chunk, due: performance.now() + delayMs });
    arm(delayMs);
  });
};
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
