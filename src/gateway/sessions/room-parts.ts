import type { EventHub } from '../hub/hub.ts';
import type { Clock } from '../infra/clock.ts';
import type { GatewayLog } from '../infra/logger.ts';
import type { Store } from '../store/types.ts';
import type { SessionAccess } from './session-access.ts';

/** What a room of the gateway is built with: the floors below it, who each session belongs to, time and the log. */
export type RoomParts = {
  readonly store: Store;
  readonly hub: EventHub;
  readonly access: SessionAccess;
  readonly clock: Clock;
  readonly log: GatewayLog;
};
