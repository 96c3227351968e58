import type { Scope } from '../../protocol/index.ts';
import { MESSAGE_SENDER_SCOPES, SESSION_CREATOR_SCOPES } from '../../protocol/rules.ts';
import { useGateway, useHello } from './gateway.tsx';
import { rememberedScopes } from './granted-scopes.ts';
import { holdsAnyOf } from './scopes.ts';

/**
 * Whether this sign-in holds one of `needed`, from the gateway's hello (or, until it arrives, the scopes the last hello
 * on this browser granted the same token); null while neither says, so a control shows neither to one who may not use
 * it nor flickers away.
 */
function useHolds(needed: readonly Scope[]): boolean | null {
  const { token } = useGateway().options;
  const held = useHello()?.auth.scopes ?? rememberedScopes(token);
  return held === undefined ? null : holdsAnyOf(held, needed);
}

/** C2: whether this sign-in may send messages (`chat.send`); operator.questions alone answers questions only. Null: not known yet. */
export const useMaySendMessages = (): boolean | null => useHolds(MESSAGE_SENDER_SCOPES);

/** C1: whether this sign-in may create sessions (`sessions.create`). Null: not known yet. */
export const useMayCreateSessions = (): boolean | null => useHolds(SESSION_CREATOR_SCOPES);

/** A3: operator.admin and operator.questions see every question (sessionless ones too); operator.read alone sees none. */
const QUESTION_ANSWERER_SCOPES: readonly Scope[] = ['operator.admin', 'operator.questions'];

/** A3: whether questions reach this sign-in to answer, whatever session asked them. Null: not known yet. */
export const useMayAnswerQuestions = (): boolean | null => useHolds(QUESTION_ANSWERER_SCOPES);
