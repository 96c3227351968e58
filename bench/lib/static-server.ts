import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHttpHandler } from '../../src/gateway/net/http.ts';

/** Serves a built page with the gateway's own static handler, so both pages of a comparison are served alike. */
export async function serveStatic(dir: string): Promise<{ url: string; close: () => Promise<void> }> {
  const server = createServer(createHttpHandler(dir));
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((ok) => server.close(() => ok())),
  };
}
