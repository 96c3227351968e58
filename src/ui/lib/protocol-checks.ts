import type { FrameChecks } from '../../client/types.ts';

/**
 * The protocol's zod schemas reach this tab as their own chunk, fetched while the first screen renders: the
 * gateway client reads every frame through them and connects only once they are in (so the first load carries no zod).
 */
export function loadProtocolChecks(): Promise<FrameChecks> {
  return import('../../client/protocol-checks.ts').then((m) => m.protocolChecks);
}

