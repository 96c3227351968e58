/** The approval policy's shapes (PRODUCT G1-G10); the wire side is src/protocol/policy.ts. */

export type RuleDecision = 'allow' | 'ask' | 'deny';

export interface ArgCondition {
  $eq?: unknown;
  $in?: unknown[];
  $lt?: number;
  $lte?: number;
  $gt?: number;
  $gte?: number;
  $regex?: string;
}

export interface RuleSpec {
  id: string;
  rule: string;
  decision: RuleDecision;
  agents?: string[];
  reason?: string;
  args?: Record<string, ArgCondition>;
  tests?: { match?: string[]; notMatch?: string[] };
}

/** `path` like 'approvals.rules[1].rule' or '/etc/p.json: rules[0].decision'. */
export interface PolicyProblem {
  path: string;
  problem: string;
}

/** layer: 'config' (the config's approvals.rules), 'file' (approvals.file) or 'grant'. */
export interface CompiledRule extends RuleSpec {
  layer: string;
}

export interface CompiledPolicy {
  rules: readonly CompiledRule[];
  unmatched: RuleDecision;
  sources: string[];
}

export interface ApprovalFacts {
  tool: string;
  input: Record<string, unknown>;
  cwd?: string;
  agent?: string;
  projectRoot?: string;
}

/** A grant that applies here (scope and expiry already checked by the caller). */
export interface GrantRule {
  id: string;
  rule: string;
}

export interface MatchedRuleRef {
  id: string;
  rule: string;
  decision: RuleDecision;
  layer: string;
}

export interface Verdict {
  decision: RuleDecision;
  matchedRules: MatchedRuleRef[];
  decidedBy: 'policy' | 'grant' | 'unmatched';
  grantId?: string;
  reason?: string;
}

export interface PolicyImport {
  policy: { rules: RuleSpec[]; unmatched?: RuleDecision };
  refused: { file: string; rule: string; why: string }[];
  warnings: string[];
}

export const DECISIONS: readonly RuleDecision[] = ['allow', 'ask', 'deny'];

const SEVERITY: Record<RuleDecision, number> = { allow: 0, ask: 1, deny: 2 };

/** G2: the more restrictive of two decisions. */
export function stricter(a: RuleDecision, b: RuleDecision): RuleDecision {
  return SEVERITY[a] >= SEVERITY[b] ? a : b;
}

export function isDecision(v: unknown): v is RuleDecision {
  return v === 'allow' || v === 'ask' || v === 'deny';
}
