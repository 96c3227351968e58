import type { IncomingMessage, ServerResponse } from 'node:http';
import type { GatewayConfig } from '../config.ts';
import type { Core } from '../core.ts';
import { dispatch, nulRefusal } from '../dispatch.ts';
import { neverCancelled } from '../hub/waiters.ts';
import { LEASE_MS, RENEW_EVERY_MS } from '../infra/duties.ts';
import type { SharedStore } from '../store/postgres/store.ts';
import { ChannelCaller } from './caller.ts';
import { Channel } from './channel.ts';
import type { ChannelsConfig } from './config.ts';
import type { ChannelDispatch, ChannelParts } from './parts.ts';
import { CHANNEL_NAMES, CHANNELS, type ChannelName } from './registry.ts';
import type { ChannelAdapter, ChannelRoute } from './types.ts';
import { backoffDelay } from '../../lib/backoff.ts';

export type ChannelsOptions = {
  log: (line: string) => void;
  /** Status lines for the person running the gateway (`askdock channel telegram ready`). */
  announce: (line: string) => void;
  checkFrames: boolean;
  /** Retry pacing for posts and reconnects (tests make it quick). */
  retry?: { baseDelayMs?: number; maxDelayMs?: number };
  /** X2: the address of a question's own page (`/q/<id>`), posted under a detail. */
  pageUrl?: (questionId: string) => string;
  /** The gateway's public address: each posted question links to its own page there (`Open in askdock`). */
  publicUrl?: string;
};

/** Webhook bodies are small JSON or form posts; anything bigger is refused before it is buffered whole. */
const MAX_WEBHOOK_BYTES = 1024 * 1024;

/** The platform's adapter when `channels.<name>` configures it; its library is loaded only then (CHANNELS). */
async function adapterFor(name: ChannelName, config: ChannelsConfig, log: (line: string) => void): Promise<ChannelAdapter | null> {
  const section = config[name];
  if (!section) return null;
  // Each entry's loader takes its own section: the name ties the two together, which TypeScript cannot follow here.
  const load = CHANNELS[name].load as (section: NonNullable<ChannelsConfig[ChannelName]>, log: (line: string) => void) => Promise<ChannelAdapter>;
  return load(section, log);
}

/** Every configured channel of one gateway (H1): started in the background, so a platform outage never holds up the gateway. */
export class Channels {
  readonly list: Channel[] = [];
  private readonly routes = new Map<string, ChannelRoute>();
  private stopped = false;
  private readonly timers = new Set<NodeJS.Timeout>();
  /** D3 for channels, on a database several gateways share: the channels this gateway holds the lease of and runs. */
  private readonly held = new Set<Channel>();
  /** When each held lease was last renewed (before the call: the lease lasts LEASE_MS from then at least). */
  private readonly renewedAt = new Map<Channel, number>();
  private leaseTimer: NodeJS.Timeout | null = null;

  private constructor(
    private readonly opts: ChannelsOptions,
    private readonly shared: { store: SharedStore; gatewayId: string } | null,
  ) {}

  /**
   * The one place the channels meet the gateway's Core: each channel's rooms get only the parts they use and a way
   * through the dispatch.
   */
  static async create(core: Core, config: GatewayConfig, channels: ChannelsConfig, opts: ChannelsOptions): Promise<Channels> {
    const parts: ChannelParts = { store: core.store, hub: core.hub, access: core.access };
    const call: ChannelDispatch = (method, params, conn) => {
      // P3 as for a socket's frame: a platform may deliver a NUL that no store can keep.
      const nul = nulRefusal(method, params);
      if (nul) throw nul;
      return dispatch(method, params, { core, conn, cancellation: neverCancelled }, opts.checkFrames);
    };
    const out = new Channels(opts, core.cluster ? { store: core.cluster, gatewayId: core.gatewayId } : null);
    for (const name of CHANNEL_NAMES) {
      const log = (line: string) => opts.log(`askdock channel ${name}: ${line}`);
      const adapter = await adapterFor(name, channels, log);
      const users = channels[name]?.users;
      if (!adapter || !users) continue;
      const caller = new ChannelCaller(core.hub, call, config, `channel:${name}`);
      const mayPost = out.shared ? () => out.mayPost(channel) : undefined;
      const channel: Channel = new Channel(parts, adapter, caller, { users, log: opts.log, ...(opts.retry ? { retry: opts.retry } : {}), ...(mayPost ? { mayPost } : {}), ...(opts.pageUrl ? { pageUrl: opts.pageUrl } : {}), ...(opts.publicUrl ? { publicUrl: opts.publicUrl } : {}) });
      out.list.push(channel);
      for (const route of adapter.routes) out.routes.set(route.path, route);
    }
    return out;
  }

  start(): void {
    if (this.shared) {
      for (const channel of this.list) channel.acceptWebhooks();
      void this.renewLeases();
      return;
    }
    for (const channel of this.list) this.run(channel);
  }

  private run(channel: Channel): void {
    channel.attach().catch((err: unknown) => this.opts.log(`askdock channel ${channel.adapter.name}: recovering what was left unposted failed: ${(err as Error).message}`));
    void this.connect(channel, 0);
  }

  /** This gateway polls and posts for `channel`: always with one gateway, while it holds the lease with several. */
  private runs(channel: Channel): boolean {
    return !this.stopped && (!this.shared || this.held.has(channel));
  }

  /**
   * D3 for channels: one gateway at a time polls a platform and posts to it (two Telegram pollers would fight over
   * updates, two senders would post each question twice). Each gateway takes or renews lease `channel.<name>` every
   * RENEW_EVERY_MS; when the holder dies its lease runs out and another takes the channel over within
   * LEASE_MS + RENEW_EVERY_MS, posting what was left unposted from the store.
   */
  private async renewLeases(): Promise<void> {
    const shared = this.shared;
    if (!shared || this.stopped) return;
    const now = Date.now();
    for (const channel of this.list) {
      const name = channel.adapter.name;
      let holds = false;
      try {
        holds = await shared.store.acquireLease(`channel.${name}`, shared.gatewayId, now, now + LEASE_MS);
      } catch (err) {
        this.opts.log(`askdock channel ${name}: renewing its lease failed: ${(err as Error).message}`);
      }
      if (holds) this.renewedAt.set(channel, now);
      if (holds && !this.held.has(channel)) {
        this.held.add(channel);
        this.opts.log(`askdock channel ${name}: this gateway runs the channel`);
        this.run(channel);
      } else if (!holds && this.held.has(channel)) {
        this.held.delete(channel);
        this.opts.log(`askdock channel ${name}: another gateway runs the channel now`);
        void channel.release().catch((err: unknown) => this.opts.log(`askdock channel ${name}: stopping failed: ${(err as Error).message}`));
      }
    }
    if (this.stopped) return;
    this.leaseTimer = setTimeout(() => void this.renewLeases(), RENEW_EVERY_MS);
  }

  /**
   * A holder that could not renew for a while (a stalled event loop) may have lost the lease without knowing yet: it
   * posts only while its last renewal is recent enough that no other gateway can have taken the channel over.
   */
  private mayPost(channel: Channel): boolean {
    const at = this.renewedAt.get(channel);
    return this.held.has(channel) && at !== undefined && Date.now() < at + LEASE_MS - RENEW_EVERY_MS;
  }

  private async connect(channel: Channel, failures: number): Promise<void> {
    if (!this.runs(channel)) return;
    try {
      await channel.connect();
      // The lease ran out while connecting: the gateway that has it now runs the channel.
      if (!this.runs(channel)) {
        if (!this.stopped) await channel.release();
        return;
      }
      this.opts.announce(`askdock channel ${channel.adapter.name} ready`);
    } catch (err) {
      if (!this.runs(channel)) return;
      const delay = backoffDelay(failures + 1, { initialMs: this.opts.retry?.baseDelayMs, maxMs: this.opts.retry?.maxDelayMs });
      this.opts.log(`askdock channel ${channel.adapter.name}: connecting failed (attempt ${failures + 1}: ${(err as Error).message}); retrying in ${delay} ms`);
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
    if (this.leaseTimer) clearTimeout(this.leaseTimer);
    for (const timer of this.timers) clearTimeout(timer);
    await Promise.all(this.list.map((c) => c.stop().catch((err: unknown) => this.opts.log(`askdock channel ${c.adapter.name}: stopping failed: ${(err as Error).message}`))));
    // A clean stop hands the channels on at once, once they stopped, instead of after the lease runs out.
    for (const channel of this.held) {
      try {
        await this.shared?.store.releaseLease(`channel.${channel.adapter.name}`, this.shared.gatewayId);
      } catch {
        // the lease runs out by itself
      }
    }
    this.held.clear();
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
      // A handler that throws at once is answered 500 like one that fails later: never an uncaught exception (S5).
      Promise.resolve().then(() => route.handle(req, Buffer.concat(chunks), res)).catch((err: unknown) => {
        this.opts.log(`askdock channels: ${path} failed: ${(err as Error).stack ?? String(err)}`);
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end('internal error\n');
      });
    });
    return true;
  }
}
