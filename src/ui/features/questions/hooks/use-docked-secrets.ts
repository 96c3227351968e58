import { useCallback, useRef } from 'react';
import type { SecretRequestRecord } from '../../../../protocol/index.ts';
import { mayAnswer } from '../../../../lib/may-answer.ts';
import { dockKeyOf } from '../../../lib/inbox.ts';
import { useHello } from '../../../lib/gateway.tsx';
import { useSecretRequests } from '../api/get-secret-requests.ts';

const NO_SECRETS: SecretRequestRecord[] = [];

/**
 * The session's secret requests as the dock shows them (W4): the one the person may provide, one routed elsewhere shown
 * read-only, or one already ended. A sessionless request docks in the Inbox instead (U15).
 */
export function useDockedSecrets(sessionKey: string) {
  const secrets = useSecretRequests(useCallback((all: SecretRequestRecord[]) => all.filter((r) => dockKeyOf(r) === sessionKey), [sessionKey])) ?? NO_SECRETS;
  const hello = useHello();
  const admin = hello?.auth.scopes.includes('operator.admin') === true;
  const pending = secrets.filter((r) => r.status === 'pending');
  // E3: what the person can act on comes first: a secret they may provide, else the question; a routed request that
  // does not wait for them is read-only and, like one someone else ended (E7), never in the way of a question.
  // The one shown stays while it is pending and theirs: an older request that starts waiting for them meanwhile
  // (secret.routed) never unmounts a value being typed.
  const providable = pending.filter((r) => !r.route || mayAnswer(r.route, hello?.auth.identity, admin));
  const shownSecretId = useRef<string | null>(null);
  const secret = providable.find((r) => r.id === shownSecretId.current) ?? providable[0];
  shownSecretId.current = secret?.id ?? null;
  const readOnlySecret = secret ? undefined : pending[0];
  const answeredSecret = pending.length > 0 ? undefined : secrets.find((r) => r.status !== 'pending');
  return { secret, readOnlySecret, answeredSecret };
}
