import type { ConnectionState } from '../client/client.ts';

export const CONNECTION_LOST = 'connection lost, reconnecting…';
export const RECONNECTED = 'reconnected';

/**
 * Turns connection states into one line when a connection that was up is lost and one when it is back, however
 * many attempts lie between (what a person at a terminal needs to know).
 */
export function outageNotices(say: (line: string) => void): (state: ConnectionState) => void {
  let wasUp = false;
  let down = false;
  return (state) => {
    if (state.status === 'connected') {
      if (down) say(RECONNECTED);
      wasUp = true;
      down = false;
    } else if ((state.status === 'reconnecting' || state.status === 'offline') && wasUp && !down) {
      down = true;
      say(CONNECTION_LOST);
    }
  };
}
