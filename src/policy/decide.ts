/**
 * G2/G3: the verdict on one request. The most restrictive matching rule decides (deny > ask > allow); grants are allow
 * rules of layer 'grant'; a Bash command is judged part by part; an error while evaluating asks, never allows.
 */
import { partMatches, ruleMatches } from './match.ts';
import { bashCandidates, grantEntries, toolCandidates, type Live } from './rule-index.ts';
import { analyzeCommand, type ShellSplit } from './shell.ts';
import { stricter, type ApprovalFacts, type CompiledPolicy, type CompiledRule, type GrantRule, type MatchedRuleRef, type RuleDecision, type Verdict } from './types.ts';

function ref(r: CompiledRule, decision: RuleDecision = r.decision): MatchedRuleRef {
  return { id: r.id, rule: r.rule, decision, layer: r.layer };
}

function failed(err: unknown): Verdict {
  return { decision: 'ask', matchedRules: [], decidedBy: 'unmatched', reason: `the policy failed while deciding (${err instanceof Error ? err.message : String(err)}); asking instead` };
}

export async function decide(policy: CompiledPolicy, facts: ApprovalFacts, grants: readonly GrantRule[] = []): Promise<Verdict> {
  try {
    // Only the rules that could apply are tried (rule-index.ts); grants are allow rules after the policy's.
    const granted = grantEntries(grants, policy.rules.length, facts);
    const matched: MatchedRuleRef[] = [];
    if (facts.tool === 'Bash') return await decideBash(policy, facts, granted, matched);
    const live = [...toolCandidates(policy.rules, facts.tool, facts), ...granted];
    let decision: RuleDecision | null = null;
    for (const { rule, m } of live) {
      let d: RuleDecision | null = null;
      try {
        if (m === null) d = stricter(rule.decision, 'ask');
        else if (ruleMatches(m, facts, rule.decision)) d = rule.decision;
      } catch {
        d = stricter(rule.decision, 'ask');
      }
      if (d === null) continue;
      matched.push(ref(rule, d));
      decision = decision === null ? d : stricter(decision, d);
    }
    return verdict(policy, decision, matched, live);
  } catch (err) {
    return failed(err);
  }
}

async function decideBash(policy: CompiledPolicy, facts: ApprovalFacts, granted: Live[], matched: MatchedRuleRef[]): Promise<Verdict> {
  const command = facts.input.command;
  const split: ShellSplit =
    typeof command === 'string' && command.trim() !== ''
      ? await analyzeCommand(command)
      : { parts: [], hazards: ['the request names no command'], statements: 0 };
  const seen = new Set<CompiledRule>();
  const tried = new Set<Live>();
  let whole: RuleDecision | null = null;
  let unmatchedPart = false;
  let allowedByGrantOnly = false;
  const units = split.parts.length ? split.parts : [null];
  for (const part of units) {
    let d: RuleDecision | null = null;
    let policyAllow = false;
    const candidates = [...bashCandidates(policy.rules, part ? [part.text, part.full, part.inner] : [], facts), ...granted];
    for (const e of candidates) tried.add(e);
    for (const { rule, m } of candidates) {
      let hit: RuleDecision | null = null;
      try {
        if (m === null) hit = stricter(rule.decision, 'ask');
        else if (part ? partMatches(m, part, rule.decision) : m.parsed.kind === 'tool' && m.parsed.tool === 'Bash') hit = rule.decision;
      } catch {
        hit = stricter(rule.decision, 'ask');
      }
      if (hit === null) continue;
      if (!seen.has(rule)) {
        seen.add(rule);
        matched.push(ref(rule, hit));
      }
      if (hit === 'allow' && rule.layer !== 'grant') policyAllow = true;
      d = d === null ? hit : stricter(d, hit);
    }
    if (d === null) unmatchedPart = true;
    else if (d === 'allow' && !policyAllow) allowedByGrantOnly = true;
    const partDecision = d ?? policy.unmatched;
    whole = whole === null ? partDecision : stricter(whole, partDecision);
  }
  const live = [...tried];
  let decision = whole ?? policy.unmatched;
  if (split.hazards.length && decision === 'allow') {
    return { decision: 'ask', matchedRules: matched, decidedBy: 'unmatched', reason: `${split.hazards.join('; ')}: never allowed by a rule` };
  }
  if (split.hazards.length) decision = stricter(decision, 'ask');
  const fromRule = matched.some((r) => r.decision === decision && r.layer !== 'grant');
  if (decision === 'allow' && !unmatchedPart) {
    if (allowedByGrantOnly) {
      const grant = matched.find((r) => r.layer === 'grant');
      return { decision, matchedRules: matched, decidedBy: 'grant', grantId: grant?.id };
    }
    return { decision, matchedRules: matched, decidedBy: 'policy', reason: reasonOf(live, matched, decision) };
  }
  if (fromRule) return { decision, matchedRules: matched, decidedBy: 'policy', reason: reasonOf(live, matched, decision) };
  const why = split.hazards.length && decision === 'ask' ? `${split.hazards.join('; ')}: never allowed by a rule` : 'no rule matched';
  return { decision, matchedRules: matched, decidedBy: 'unmatched', reason: why };
}

function reasonOf(live: Live[], matched: MatchedRuleRef[], decision: RuleDecision): string | undefined {
  const first = matched.find((r) => r.decision === decision && r.layer !== 'grant');
  return first ? live.find((l) => l.rule.id === first.id && l.rule.layer === first.layer)?.rule.reason : undefined;
}

function verdict(policy: CompiledPolicy, decision: RuleDecision | null, matched: MatchedRuleRef[], live: Live[]): Verdict {
  if (decision === null) return { decision: policy.unmatched, matchedRules: [], decidedBy: 'unmatched', reason: 'no rule matched' };
  const policyHit = matched.find((r) => r.decision === decision && r.layer !== 'grant');
  if (policyHit) {
    return { decision, matchedRules: matched, decidedBy: 'policy', reason: live.find((l) => l.rule.id === policyHit.id && l.rule.layer === policyHit.layer)?.rule.reason };
  }
  const grant = matched.find((r) => r.layer === 'grant');
  return { decision, matchedRules: matched, decidedBy: 'grant', grantId: grant?.id };
}
