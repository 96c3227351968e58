import { PROTOCOL_VERSION } from '../protocol/version.ts';
import type { GatewayClientOptions } from './types.ts';

/** The `connect` request answering the gateway's connect.challenge (P2), resuming from `cursor` when there is one (R2). */
export function connectFrame(options: GatewayClientOptions, clientId: string, cursor: number | undefined) {
  const c = options.client;
  const resume = cursor !== undefined ? { cursor } : undefined;
  return {
    type: 'req',
    id: '__connect',
    method: 'connect',
    params: {
      minProtocol: PROTOCOL_VERSION,
      maxProtocol: PROTOCOL_VERSION,
      client: {
        id: clientId,
        name: c.name,
        version: c.version ?? '0.1.0',
        platform: c.platform ?? (typeof navigator !== 'undefined' ? 'browser' : process.platform),
        mode: c.mode,
      },
      auth: { token: options.token },
      ...(resume ? { resume } : {}),
    },
  } as const;
}
