/** The approval policy (PRODUCT G1-G10): framework-free; the gateway, the hook and the CLI build on it. */
export type {
  ApprovalFacts,
  ArgCondition,
  CompiledPolicy,
  CompiledRule,
  GrantRule,
  MatchedRuleRef,
  PolicyImport,
  PolicyProblem,
  RuleDecision,
  RuleSpec,
  Verdict,
} from './types.ts';
export { stricter } from './types.ts';
export { compilePolicy, emptyPolicy, type CompileOptions, type CompileResult } from './compile.ts';
export { decide } from './decide.ts';
export { checkRuleText } from './grammar.ts';
export { approvalDigest, describeRequest, offeredRule } from './offer.ts';
export { exampleFacts } from './examples.ts';
export { importClaudeCode } from './imports/claude-code.ts';
export { importCodex } from './imports/codex.ts';
export { routeToolMatcher } from './route-tool-matcher.ts';
