import { useMemo } from 'react';
import type { QuestionRecord } from '../../../../protocol/index.ts';
import { recordWithChoosableOffers } from '../../../../answers/kinds/approval-offers.ts';
import { useHello } from '../../../lib/gateway.tsx';

/**
 * G5: the record as this tab's identity is offered it: an approval lists only the "Always allow…" offers whose grant
 * the identity may make (its scopes from the hello). Options, number keys and the Other card all count from it.
 */
export function useChoosableOffers(record: QuestionRecord): QuestionRecord {
  const scopes = useHello()?.auth.scopes ?? null;
  return useMemo(() => recordWithChoosableOffers(record, scopes), [record, scopes]);
}
