import { createHash } from 'node:crypto';
import { basename, resolve } from 'node:path';

/** T6: who asks (the gateway adds the identity), from which client, in which working directory. */
export type OwnSessionOptions = { clientName: string; cwd: string };

/** The folder as a person would name it: the last part of the path, or the path itself at a root. */
export function folderName(cwd: string): string {
  const full = resolve(cwd);
  return basename(full) || full;
}

/** `<client name> · <folder>`; a client that gives no name is an "MCP client". */
export function ownSessionTitle(opts: OwnSessionOptions): string {
  const client = opts.clientName.trim() || 'MCP client';
  return `${client} · ${folderName(opts.cwd)}`.slice(0, 200);
}

/**
 * `sessions.create` params for the session of its own: the idempotency key hashes client and full path, so each
 * (identity, client, folder) has one session, found again after any restart (A6 keys are per identity).
 */
export function ownSessionParams(opts: OwnSessionOptions): { title: string; idempotencyKey: string } {
  const digest = createHash('sha256').update(JSON.stringify([opts.clientName.trim(), resolve(opts.cwd)])).digest('hex');
  return { title: ownSessionTitle(opts), idempotencyKey: `own-session:${digest.slice(0, 40)}` };
}
