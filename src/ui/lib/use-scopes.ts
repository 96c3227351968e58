import type { Scope } from '../../protocol/index.ts';
import { MESSAGE_SENDER_SCOPES, SESSION_CREATOR_SCOPES } from '../../protocol/rules.ts';
import { useHello } from './gateway.tsx';
import { holdsAnyOf } from './scopes.ts';

/**
 * Whether this sign-in holds one of `needed`: true until the gateway's hello says which scopes it holds, so a control
 * nearly everyone may use shows at once rather than after the connection.
 */
function useHolds(needed: readonly Scope[]): boolean {
  const held = useHello()?.auth.scopes;
  return held === undefined || holdsAnyOf(held, needed);
}

/** C2: whether this sign-in may send messages (`chat.send`); operator.questions alone answers questions only. */
export const useMaySendMessages = (): boolean => useHolds(MESSAGE_SENDER_SCOPES);

/** C1: whether this sign-in may create sessions (`sessions.create`). */
export const useMayCreateSessions = (): boolean => useHolds(SESSION_CREATOR_SCOPES);
