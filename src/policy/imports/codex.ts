/**
 * G8: Codex `.rules` files (`prefix_rule(pattern, decision, justification, match, not_match)`) as askdock rules.
 * A pattern is a token prefix, so it becomes `Bash(tokens *)`; an item that is a list means alternatives, one rule
 * each. `prompt` is ask, `forbidden` deny, a missing decision allow (with a warning); examples become `tests`.
 */
import { compilePolicy } from '../compile.ts';
import type { PolicyImport, RuleDecision, RuleSpec } from '../types.ts';
import { parseStarlark, type Call, type Value } from './starlark.ts';

const DECISIONS: Record<string, RuleDecision> = { allow: 'allow', prompt: 'ask', forbidden: 'deny' };
const KNOWN = new Set(['pattern', 'decision', 'justification', 'match', 'not_match']);
/** A token askdock can write inside Bash(...) and match as typed: no spaces, quotes, globs or shell operators. */
const PLAIN = /^[A-Za-z0-9_@%+=:,./~^-]+$/;
const MAX_ALTERNATIVES = 64;

function strings(v: Value | undefined): string[] | null {
  return Array.isArray(v) && v.every((x) => typeof x === 'string') ? (v as string[]) : null;
}

function shellWord(token: string): string {
  return PLAIN.test(token) ? token : `'${token.replace(/'/g, `'\\''`)}'`;
}

/** Examples are token arrays or strings; both become Bash(...) requests. */
function examples(v: Value | undefined, key: string): string[] | string {
  if (v === undefined) return [];
  if (!Array.isArray(v)) return `${key} must be a list of examples`;
  const out: string[] = [];
  for (const ex of v) {
    if (typeof ex === 'string') out.push(`Bash(${ex})`);
    else if (strings(ex)?.length) out.push(`Bash(${(ex as string[]).map(shellWord).join(' ')})`);
    else return `${key} holds an example that is neither a string nor a list of strings`;
  }
  return out;
}

function alternatives(pattern: Value[]): string[][] | string {
  let combos: string[][] = [[]];
  for (const item of pattern) {
    const alts = typeof item === 'string' ? [item] : strings(item);
    if (!alts || alts.length === 0) return 'pattern items must be strings or non-empty lists of strings';
    const bad = alts.find((t) => !PLAIN.test(t));
    if (bad !== undefined) return `the token ${JSON.stringify(bad)} has spaces, quotes, wildcards or shell operators, which a Bash(...) rule cannot match exactly`;
    combos = combos.flatMap((c) => alts.map((a) => [...c, a]));
    if (combos.length > MAX_ALTERNATIVES) return `the alternatives make more than ${MAX_ALTERNATIVES} rules`;
  }
  return combos;
}

function slug(s: string): string {
  return s.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 40) || 'rule';
}

function convert(call: Call, file: string, out: PolicyImport, ids: Set<string>): void {
  const shown = `${call.name}(…) at line ${call.line}`;
  const refuse = (why: string): void => {
    out.refused.push({ file, rule: shown, why });
  };
  if (call.name !== 'prefix_rule') return refuse(`${call.name}() has no askdock equivalent; only prefix_rule is imported`);
  if (call.positional) return refuse('positional arguments are not understood; write pattern=..., decision=...');
  const unknown = [...call.kwargs.keys()].filter((k) => !KNOWN.has(k));
  if (unknown.length) return refuse(`unknown argument${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}`);
  const pattern = call.kwargs.get('pattern');
  if (!Array.isArray(pattern) || pattern.length === 0) return refuse('pattern must be a non-empty list of tokens');
  const combos = alternatives(pattern);
  if (typeof combos === 'string') return refuse(combos);
  const rawDecision = call.kwargs.get('decision');
  let decision: RuleDecision;
  if (rawDecision === undefined) {
    decision = 'allow';
    out.warnings.push(`${file}: line ${call.line}: prefix_rule without a decision is imported as allow (Codex's default); write decision="allow" to say so`);
  } else if (typeof rawDecision === 'string' && DECISIONS[rawDecision]) decision = DECISIONS[rawDecision];
  else return refuse(`unknown decision ${JSON.stringify(rawDecision)} (allow, prompt or forbidden)`);
  const justification = call.kwargs.get('justification');
  if (justification !== undefined && typeof justification !== 'string') return refuse('justification must be a string');
  const match = examples(call.kwargs.get('match'), 'match');
  const notMatch = examples(call.kwargs.get('not_match'), 'not_match');
  if (typeof match === 'string') return refuse(match);
  if (typeof notMatch === 'string') return refuse(notMatch);

  const rules: RuleSpec[] = combos.map((tokens) => {
    let id = `codex-${slug(tokens.join(' '))}`;
    for (let k = 2; ids.has(id); k++) id = `codex-${slug(tokens.join(' '))}-${k}`;
    ids.add(id);
    return { id, rule: `Bash(${tokens.join(' ')} *)`, decision, ...(justification ? { reason: justification } : {}) };
  });
  // A match example belongs to the alternative it matches; a not_match example must match none of them.
  const matchesRule = (rule: RuleSpec, ex: string) => compilePolicy({ rules: [{ ...rule, tests: { match: [ex] } }] }).ok;
  for (const ex of match) {
    const owner = rules.find((r) => matchesRule(r, ex));
    if (!owner) return rollback(rules, ids, () => refuse(`its match example ${ex} matches no rule made from the pattern`));
    (owner.tests ??= {}).match = [...(owner.tests.match ?? []), ex];
  }
  if (notMatch.length) for (const r of rules) (r.tests ??= {}).notMatch = [...notMatch];
  const check = compilePolicy({ rules });
  if (!check.ok) return rollback(rules, ids, () => refuse(check.problems.map((p) => p.problem).join('; ')));
  out.policy.rules.push(...rules);
}

function rollback(rules: RuleSpec[], ids: Set<string>, then: () => void): void {
  for (const r of rules) ids.delete(r.id);
  then();
}

export function importCodex(files: { path: string; text: string }[]): PolicyImport {
  const out: PolicyImport = { policy: { rules: [] }, refused: [], warnings: [] };
  const ids = new Set<string>();
  for (const file of files) {
    let calls: Call[];
    try {
      calls = parseStarlark(file.text);
    } catch (err) {
      out.refused.push({ file: file.path, rule: '(the whole file)', why: `not understood: ${(err as Error).message}` });
      continue;
    }
    for (const call of calls) convert(call, file.path, out, ids);
  }
  return out;
}
