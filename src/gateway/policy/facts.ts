import type { ApprovalRequest } from '../../protocol/index.ts';
import type { ApprovalFacts } from '../../policy/index.ts';

/**
 * G1 facts of an approval: the agent is the identity asking; the kind it names itself (`claude-code`, `codex`: several
 * agents may share one identity, as the hooks do) is matched by `agents` globs too. A kind can only be claimed by an
 * identity that already runs tools, so naming another kind gains it nothing it could not do without asking.
 */
export function factsOf(approval: Pick<ApprovalRequest, 'tool' | 'input' | 'cwd' | 'agent'>, agentId: string): ApprovalFacts {
  return {
    tool: approval.tool,
    input: approval.input,
    ...(approval.cwd !== undefined ? { cwd: approval.cwd } : {}),
    agent: agentId,
    ...(approval.agent !== undefined && approval.agent !== agentId ? { agentKind: approval.agent } : {}),
  };
}

/** G5: the agent an "for this agent" grant binds to: the identity, and the kind it names when it names one. */
export const grantAgent = (facts: ApprovalFacts): string => (facts.agentKind !== undefined ? `${facts.agent}/${facts.agentKind}` : facts.agent ?? '');
