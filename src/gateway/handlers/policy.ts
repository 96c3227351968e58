import { AskdockError } from '../../protocol/index.ts';
import type { HandlerTable } from './types.ts';

// G12: the policy room answers these once it is built; until then they are refused as unavailable.
const notYet = (): never => {
  throw new AskdockError('UNAVAILABLE', 'the approval policy is not available on this gateway', { retryable: false });
};
export const policyHandlers: Pick<HandlerTable, 'policy.get' | 'policy.check' | 'policy.grant.revoke'> = {
  'policy.get': notYet,
  'policy.check': notYet,
  'policy.grant.revoke': notYet,
};
