/** Compiled rules and the sync test of one rule against one request (G1); compiled once per rule text. */
import { argsMatch, compileArgs, type CompiledArgs } from './args.ts';
import { globRegex, parseRule, toolCovers, type ParsedRule } from './grammar.ts';
import { pathMatches, requestPath, type PathBases } from './paths.ts';
import type { ShellPart, ShellSplit } from './parts.ts';
import type { ApprovalFacts, ArgCondition, RuleDecision } from './types.ts';

export interface Matcher {
  parsed: ParsedRule;
  args?: CompiledArgs;
  agents?: RegExp[];
}

const matchers = new Map<string, Matcher>();

/** The compiled form of a rule; throws when the rule is outside the grammar (compilePolicy refuses those first). */
export function matcherFor(rule: { rule: string; args?: Record<string, ArgCondition>; agents?: string[] }): Matcher {
  const key = JSON.stringify([rule.rule, rule.args ?? null, rule.agents ?? null]);
  const hit = matchers.get(key);
  if (hit) return hit;
  const parsed = parseRule(rule.rule);
  if (!parsed.ok) throw new Error(`rule "${rule.rule}" is outside the grammar: ${parsed.why}`);
  const m: Matcher = { parsed: parsed.rule };
  if (rule.args) {
    const args = compileArgs(rule.args, 'args');
    if (!args.ok) throw new Error(`rule "${rule.rule}": ${args.problems.map((p) => `${p.path}: ${p.problem}`).join('; ')}`);
    m.args = args.args;
  }
  if (rule.agents) m.agents = rule.agents.map(globRegex);
  if (matchers.size > 5000) matchers.clear();
  matchers.set(key, m);
  return m;
}

export function agentApplies(m: Matcher, agent: string | undefined): boolean {
  return !m.agents || (agent !== undefined && m.agents.some((g) => g.test(agent)));
}

/** Whether a Bash rule covers one part; allow rules judge the unwrapped command, deny and ask rules either form. */
export function partMatches(m: Matcher, part: ShellPart, decision: RuleDecision): boolean {
  if (m.parsed.kind === 'tool') return m.parsed.tool === 'Bash';
  if (m.parsed.kind !== 'bash') return false;
  const re = m.parsed.pattern;
  return re.test(part.text) || (decision !== 'allow' && re.test(part.full));
}

function hostOf(input: Record<string, unknown>): string | null {
  if (typeof input.url !== 'string') return null;
  try {
    return new URL(input.url).hostname.toLowerCase();
  } catch {
    return null;
  }
}

/** Whether a rule covers a request other than Bash's parts (Bash: whether it covers any part of `split`). */
export function ruleMatches(m: Matcher, facts: ApprovalFacts, decision: RuleDecision, split?: ShellSplit): boolean {
  const p = m.parsed;
  let hit: boolean;
  if (facts.tool === 'Bash' && (p.kind === 'bash' || (p.kind === 'tool' && p.tool === 'Bash'))) {
    hit = p.kind === 'tool' || (split?.parts.some((part) => partMatches(m, part, decision)) ?? false);
  } else if (p.kind === 'tool') hit = toolCovers(p.tool, facts.tool);
  else if (p.kind === 'path') {
    const bases: PathBases = { cwd: facts.cwd, projectRoot: facts.projectRoot };
    const file = toolCovers(p.tool, facts.tool) ? requestPath(facts.input, bases) : null;
    hit = file !== null && pathMatches(p.spec, file, bases);
  } else if (p.kind === 'domain') {
    const host = facts.tool === 'WebFetch' ? hostOf(facts.input) : null;
    hit = host !== null && (p.host.startsWith('*.') ? host.endsWith(p.host.slice(1)) : host === p.host);
  } else if (p.kind === 'mcp') hit = p.name.test(facts.tool);
  else hit = false;
  return hit && (!m.args || argsMatch(m.args, facts.input));
}
