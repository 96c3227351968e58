import type { PolicyDecision } from '../../../../protocol/policy.ts';
import { DECISION_WORD } from '../lib/grant-text.ts';

/** G2: a rule's decision as a soft pill: allow green, ask amber, deny red; the word carries it, not the colour. */
export function DecisionBadge({ decision }: { decision: PolicyDecision }) {
  return <span className={`status-pill decision-badge decision-${decision}`}>{DECISION_WORD[decision]}</span>;
}
