/**
 * G2/G11: the rules a request can meet, found without trying every rule. Built once per policy: every rule compiled,
 * Bash rules filed by the first word their pattern fixes (`Bash(npm run test *)` under `npm`), the others found once
 * per tool name. A rule the index cannot file (`Bash(ls*)`, `Bash(* --help)`, a rule that does not compile) is tried
 * for every request, as before. Candidates keep the policy's order, so verdicts name rules as a full scan would.
 */
import { agentApplies, matcherFor, type Matcher } from './match.ts';
import { toolCovers } from './grammar.ts';
import type { ApprovalFacts, CompiledRule } from './types.ts';

export interface Live {
  rule: CompiledRule;
  /** null: the rule could not be compiled; it counts as ask wherever it could apply (G10). */
  m: Matcher | null;
  /** Its place in the policy (grants come after every rule). */
  at: number;
}

interface RuleIndex {
  /** Bash rules tried for every part: bare `Bash`, patterns without a fixed first word, rules that do not compile. */
  bashAlways: Live[];
  bashByWord: Map<string, Live[]>;
  others: Live[];
  byTool: Map<string, Live[]>;
}

const TOOL_CACHE_MAX = 1000;
const indexes = new WeakMap<readonly CompiledRule[], RuleIndex>();

/** A command's first word: what `bashKey` files a rule under. */
export function firstWord(text: string): string {
  const sp = text.indexOf(' ');
  return sp < 0 ? text : text.slice(0, sp);
}

/** The first word every command a Bash pattern matches starts with, or null when the pattern leaves it open. */
export function bashKey(spec: string): string | null {
  const body = spec.endsWith(':*') ? `${spec.slice(0, -2)} *` : spec;
  const star = body.indexOf('*');
  if (star < 0) return firstWord(body);
  const sp = body.slice(0, star).indexOf(' ');
  return sp < 0 ? null : body.slice(0, sp);
}

function compileEntry(rule: CompiledRule, at: number): Live {
  try {
    return { rule, m: matcherFor(rule), at };
  } catch {
    return { rule, m: null, at };
  }
}

function build(rules: readonly CompiledRule[]): RuleIndex {
  const index: RuleIndex = { bashAlways: [], bashByWord: new Map(), others: [], byTool: new Map() };
  rules.forEach((rule, at) => {
    const e = compileEntry(rule, at);
    const p = e.m?.parsed;
    if (!p) {
      index.bashAlways.push(e);
      index.others.push(e);
    } else if (p.kind === 'bash') {
      const key = bashKey(p.spec);
      if (key === null) index.bashAlways.push(e);
      else index.bashByWord.set(key, [...(index.bashByWord.get(key) ?? []), e]);
    } else if (p.kind === 'tool' && p.tool === 'Bash') index.bashAlways.push(e);
    else index.others.push(e);
  });
  return index;
}

function indexOf(rules: readonly CompiledRule[]): RuleIndex {
  let index = indexes.get(rules);
  if (!index) {
    index = build(rules);
    indexes.set(rules, index);
  }
  return index;
}

/** Whether a rule of the index could cover a request for `tool` (args and paths are judged later). */
function couldCover(e: Live, tool: string): boolean {
  const p = e.m?.parsed;
  if (!p) return true;
  if (p.kind === 'tool' || p.kind === 'path') return toolCovers(p.tool, tool);
  if (p.kind === 'domain') return tool === 'WebFetch';
  if (p.kind === 'mcp') return p.name.test(tool);
  return false;
}

/** Who asks: `agents` globs match the identity or the kind of agent it names. */
type Asker = Pick<ApprovalFacts, 'agent' | 'agentKind'>;

function applies(e: Live, who: Asker): boolean {
  return e.m === null || agentApplies(e.m, who.agent, who.agentKind);
}

/** The grants of one request as rules after the policy's; a grant that does not compile is not applied. */
export function grantEntries(grants: readonly { id: string; rule: string }[], after: number, who: Asker): Live[] {
  const out: Live[] = [];
  grants.forEach((g, j) => {
    const e = compileEntry({ id: g.id, rule: g.rule, decision: 'allow', layer: 'grant' }, after + j);
    if (e.m && agentApplies(e.m, who.agent, who.agentKind)) out.push(e);
  });
  return out;
}

/** The policy's rules that could decide a request for a tool other than Bash, in policy order. */
export function toolCandidates(rules: readonly CompiledRule[], tool: string, who: Asker): Live[] {
  const index = indexOf(rules);
  let list = index.byTool.get(tool);
  if (!list) {
    list = index.others.filter((e) => couldCover(e, tool));
    if (index.byTool.size >= TOOL_CACHE_MAX) index.byTool.clear();
    index.byTool.set(tool, list);
  }
  return list.filter((e) => applies(e, who));
}

/** The policy's Bash rules that could match a part written in any of `forms`, in policy order. */
export function bashCandidates(rules: readonly CompiledRule[], forms: readonly (string | undefined)[], who: Asker): Live[] {
  const index = indexOf(rules);
  const lists = [index.bashAlways];
  const words = new Set<string>();
  for (const f of forms) if (f !== undefined) words.add(firstWord(f));
  for (const w of words) {
    const l = index.bashByWord.get(w);
    if (l) lists.push(l);
  }
  const merged = lists.length === 1 ? lists[0] : [...new Set(lists.flat())].sort((a, b) => a.at - b.at);
  return merged.filter((e) => applies(e, who));
}
