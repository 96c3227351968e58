import * as z from 'zod';

/** G1/G2: what a rule or the policy decides. */
export const PolicyDecision = z.enum(['allow', 'ask', 'deny']);
export type PolicyDecision = z.infer<typeof PolicyDecision>;

/** G11: the approval an agent asks for; `tool` as G1 names it (`Bash`, `Edit`, `mcp__github__create_issue`). */
export const APPROVAL_TOOL_MAX = 256;
export const ApprovalRequest = z.object({
  tool: z
    .string({ error: 'approval.tool must be a string' })
    .min(1, { error: 'approval.tool must not be empty' })
    .max(APPROVAL_TOOL_MAX, { error: `approval.tool must be at most ${APPROVAL_TOOL_MAX} characters` }),
  /** The tool's JSON input (`{command}` for Bash, `{file_path}` for Edit, the arguments of an MCP tool). */
  input: z.record(z.string(), z.unknown(), { error: 'approval.input must be an object' }),
  cwd: z.string({ error: 'approval.cwd must be a string' }).max(4096, { error: 'approval.cwd must be at most 4096 characters' }).optional(),
  agent: z.string({ error: 'approval.agent must be a string' }).min(1).max(128, { error: 'approval.agent must be at most 128 characters' }).optional(),
  /** Rules the agent proposes for "Always allow" (G7), in G1's grammar. */
  suggestions: z.array(z.string().min(1).max(1000), { error: 'approval.suggestions must be an array of rules' }).max(8, { error: 'approval.suggestions must have at most 8 rules' }).optional(),
});
export type ApprovalRequest = z.infer<typeof ApprovalRequest>;

/** G5: how far a grant reaches. */
export const GrantScope = z.enum(['session', 'project', 'agent', 'everyone']);
export type GrantScope = z.infer<typeof GrantScope>;

/** A rule that matched a request, with the layer it came from (`config`, `file`, `grant`). */
export const MatchedRule = z.object({ id: z.string(), rule: z.string(), decision: PolicyDecision, layer: z.string() });
export type MatchedRule = z.infer<typeof MatchedRule>;

/** G11: how an approval was decided; `rules` are the ids that decided it (or that made it ask). */
export const ApprovalDecision = z.object({
  behavior: z.enum(['allow', 'deny']),
  decidedBy: z.enum(['policy', 'grant', 'person', 'timeout']),
  rules: z.array(z.string()),
  message: z.string().optional(),
  grantId: z.string().optional(),
  resolvedBy: z.object({ identity: z.string(), surface: z.string(), atMs: z.number(), name: z.string().optional() }).optional(),
});
export type ApprovalDecision = z.infer<typeof ApprovalDecision>;

/** G5/G12: a grant as `policy.get` lists it; `expiresAt` in ms since the epoch. */
export const PolicyGrant = z.object({
  id: z.string(),
  rule: z.string(),
  scope: GrantScope,
  expiresAt: z.number(),
  grantedBy: z.string(),
  questionId: z.string(),
  createdAtMs: z.number().optional(),
  /** What the scope binds to: the session, the project folder or the agent. */
  sessionKey: z.string().optional(),
  project: z.string().optional(),
  agent: z.string().optional(),
});
export type PolicyGrant = z.infer<typeof PolicyGrant>;

export const PolicyRuleView = z.object({ id: z.string(), rule: z.string(), decision: PolicyDecision, layer: z.string(), reason: z.string().optional() });
export type PolicyRuleView = z.infer<typeof PolicyRuleView>;

export const PolicyGetResult = z.object({
  rules: z.array(PolicyRuleView),
  grants: z.array(PolicyGrant),
  unmatched: PolicyDecision.optional(),
  loadedAtMs: z.number(),
  /** Why the last reload failed (the previous policy is still in force, G10). */
  error: z.string().optional(),
});
export type PolicyGetResult = z.infer<typeof PolicyGetResult>;

export const PolicyCheckParams = z.object({
  tool: ApprovalRequest.shape.tool,
  input: ApprovalRequest.shape.input.optional(),
  agent: ApprovalRequest.shape.agent,
  cwd: ApprovalRequest.shape.cwd,
});
export const PolicyCheckResult = z.object({ decision: PolicyDecision, matchedRules: z.array(MatchedRule) });
export type PolicyCheckResult = z.infer<typeof PolicyCheckResult>;

/** G12: a person's "Always allow…" answer asks for a grant of this scope. */
export const GrantRequest = z.object({ scope: GrantScope, rule: z.string().min(1).max(1000).optional() });
export type GrantRequest = z.infer<typeof GrantRequest>;
/** G5/E5: the grant an answer chose, once checked: its scope and the offered rule it keeps. */
export const ChosenGrant = z.object({ scope: GrantScope, rule: z.string() });
export type ChosenGrant = z.infer<typeof ChosenGrant>;
