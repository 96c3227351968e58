import type { FrameChecks } from '../../client/types.ts';
import { retryingImport } from './retrying-import.ts';

/**
 * The protocol's zod schemas reach this tab as their own chunk, fetched while the first screen renders: the
 * gateway client reads every frame through them and connects only once they are in (so the first load carries no zod).
 * A failed fetch is tried again (the client also calls this again on each reconnect attempt until it succeeds).
 */
export const loadProtocolChecks: () => Promise<FrameChecks> = retryingImport(
  () => import('../../client/protocol-checks.ts'),
  (m) => m.protocolChecks,
).load;

