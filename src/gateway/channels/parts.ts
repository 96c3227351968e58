import type { MethodName } from '../../protocol/index.ts';
import type { ConnInfo } from '../handlers/types.ts';
import type { RoomParts } from '../sessions/room-parts.ts';

/**
 * What a channel's rooms are built with (STYLE.md "The gateway's floors"): the store, the hub and who owns each
 * session; never the Core.
 */
export type ChannelParts = Pick<RoomParts, 'store' | 'hub' | 'access'>;

/** H4: runs one method as `conn` through the gateway's dispatch (P3, scopes, A3 visibility, validation): its result or a promise of it. */
export type ChannelDispatch = (method: MethodName, params: unknown, conn: ConnInfo) => unknown;
