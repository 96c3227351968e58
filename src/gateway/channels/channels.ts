import type { IncomingMessage, ServerResponse } from 'node:http';
import type { GatewayConfig } from '../config.ts';
import type { Core } from '../core.ts';
import { ChannelCaller } from './caller.ts';
import { Channel } from './channel.ts';
import type { ChannelsConfig } from './config.ts';
import type { ChannelAdapter, ChannelRoute } from './types.ts';
import { backoffDelay } from '../../lib/backoff.ts';

export type ChannelsOptions = {
  log: (line: string) => void;
  /** Status lines for the person running the gateway (`askdock channel telegram ready`). */
  announce: (line: string) => void;
  checkFrames: boolean;
  /** Retry pacing for posts and reconnects (tests make it quick). */
  retry?: { baseDelayMs?: number; maxDelayMs?: number };
};

/** Webhook bodies are small JSON or form posts; anything bigger is refused before it is buffered whole. */
const MAX_WEBHOOK_BYTES = 1024 * 1024;

/** Each platform's library is loaded only when that platform is configured: a gateway without channels starts as fast as before. */
async function adapterFor(name: keyof ChannelsConfig, config: ChannelsConfig, log: (line: string) => void): Promise<ChannelAdapter | null> {
  if (name === 'telegram' && config.telegram) return new (await import('./telegram.ts')).TelegramAdapter(config.telegram, log);
  if (name === 'slack' && config.slack) return new (await import('./slack.ts')).SlackAdapter(config.slack, log);
  if (name === 'discord' && config.discord) return new (await import('./discord.ts')).DiscordAdapter(config.discord, log);
  return null;
}

/** Every configured channel of one gateway (H1): started in the background, so a platform outage never holds up the gateway. */
export class Channels {
  readonly list: Channel[] = [];
  private readonly routes = new Map<string, ChannelRoute>();
  private stopped = false;
  private readonly timers = new Set<NodeJS.Timeout>();

  private constructor(private readonly opts: ChannelsOptions) {}

  static async create(core: Core, config: GatewayConfig, channels: ChannelsConfig, opts: ChannelsOptions): Promise<Channels> {
    const out = new Channels(opts);
    for (const name of ['telegram', 'slack', 'discord'] as const) {
      const log = (line: string) => opts.log(`askdock channel ${name}: ${line}`);
      const adapter = await adapterFor(name, channels, log);
      const users = channels[name]?.users;
      if (!adapter || !users) continue;
      const caller = new ChannelCaller(core, config, `channel:${name}`, opts.checkFrames);
      out.list.push(new Channel(core, adapter, caller, { users, log: opts.log, ...(opts.retry ? { retry: opts.retry } : {}) }));
      for (const route of adapter.routes) out.routes.set(route.path, route);
    }
    return out;
  }

  start(): void {
    for (const channel of this.list) {
      channel.attach();
      void this.connect(channel, 0);
    }
  }

  private async connect(channel: Channel, failures: number): Promise<void> {
    if (this.stopped) return;
    try {
      await channel.connect();
      this.opts.announce(`askdock channel ${channel.adapter.name} ready`);
    } catch (err) {
      if (this.stopped) return;
      const delay = backoffDelay(failures + 1, { initialMs: this.opts.retry?.baseDelayMs, maxMs: this.opts.retry?.maxDelayMs });
      this.opts.log(`askdock channel ${channel.adapter.name}: connecting failed (${(err as Error).message}); retrying in ${delay} ms`);
      await channel.adapter.stop().catch(() => undefined);
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        void this.connect(channel, failures + 1);
      }, delay);
      this.timers.add(timer);
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const timer of this.timers) clearTimeout(timer);
    await Promise.all(this.list.map((c) => c.stop().catch((err: unknown) => this.opts.log(`askdock channel ${c.adapter.name}: stopping failed: ${(err as Error).message}`))));
  }

  /** H7 webhook routes (`POST /channels/slack/events` …); false when the request is not for a channel. */
  handle(req: IncomingMessage, res: ServerResponse): boolean {
    const path = (req.url ?? '').split('?')[0];
    if (!path.startsWith('/channels/')) return false;
    const route = this.routes.get(path);
    if (!route) return false;
    if (req.method !== 'POST') {
      res.writeHead(405, { allow: 'POST', 'content-type': 'text/plain; charset=utf-8' }).end('method not allowed\n');
      return true;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_WEBHOOK_BYTES) {
        res.writeHead(413, { 'content-type': 'text/plain; charset=utf-8', connection: 'close' }).end('payload too large\n');
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (res.headersSent) return;
      Promise.resolve(route.handle(req, Buffer.concat(chunks), res)).catch((err: unknown) => {
        this.opts.log(`askdock channels: ${path} failed: ${(err as Error).stack ?? String(err)}`);
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end('internal error\n');
      });
    });
    return true;
  }
}
