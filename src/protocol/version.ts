/** Q12: protocol 2 adds question kinds; a client speaking only 1 is still served (kinds lowered to `choice`). */
export const PROTOCOL_VERSION = 2;
/** The oldest protocol the gateway still serves. */
export const OLDEST_PROTOCOL_VERSION = 1;

/** The newest protocol both sides speak, or null when none. */
export function commonProtocol(minProtocol: number, maxProtocol: number): number | null {
  const best = Math.min(PROTOCOL_VERSION, maxProtocol);
  return best >= OLDEST_PROTOCOL_VERSION && best >= minProtocol ? best : null;
}
/** Product version reported in hello-ok.server.version. */
export const SERVER_VERSION = '0.1.0';
