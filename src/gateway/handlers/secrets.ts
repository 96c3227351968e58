import { connectionSurface } from '../questions/surface.ts';
import type { HandlerTable } from './types.ts';

type SecretMethods = 'secret.request' | 'secret.provide' | 'secret.waitResult' | 'secret.cancel' | 'secret.get' | 'secret.list';

/** K1: thin over the secret manager. */
export const secretHandlers: Pick<HandlerTable, SecretMethods> = {
  'secret.request': (p, { core, conn }) => core.secrets.request(conn.identity, conn.clientId, p),
  'secret.provide': (p, { core, conn }) => core.secrets.provide(conn.identity, p, connectionSurface(conn)),
  'secret.waitResult': (p, { core, conn, cancellation }) => core.secrets.waitResult(conn.identity, p, cancellation),
  'secret.cancel': (p, { core, conn }) => core.secrets.cancel(conn.identity, p),
  'secret.get': (p, { core, conn }) => core.secrets.get(conn.identity, p.name),
  'secret.list': (p, { core, conn }) => core.secrets.list(conn.identity, p),
};
