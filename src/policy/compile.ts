/**
 * G1/G10: a policy is checked as a whole before it is used: every fault is reported with its place and the problem,
 * and a policy with any fault does not load (fail closed).
 */
import { readFileSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { compileArgs } from './args.ts';
import { parseRule } from './grammar.ts';
import { exampleFacts } from './examples.ts';
import { matcherFor, ruleMatches } from './match.ts';
import { splitCommand } from './parts.ts';
import { DECISIONS, isDecision, type CompiledPolicy, type CompiledRule, type PolicyProblem, type RuleDecision } from './types.ts';

export interface CompileOptions {
  where?: string;
  readFile?: (path: string) => string;
  baseDir?: string;
}
export type CompileResult = { ok: true; policy: CompiledPolicy } | { ok: false; problems: PolicyProblem[] };

const RULE_KEYS = new Set(['id', 'rule', 'decision', 'agents', 'reason', 'args', 'tests']);
const AGENT_GLOB = /^[A-Za-z0-9_.:@*?-]+$/;

export function emptyPolicy(): CompiledPolicy {
  return { rules: [], unmatched: 'ask', sources: [] };
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function compilePolicy(approvals: unknown, opts: CompileOptions = {}): CompileResult {
  const where = opts.where ?? 'approvals';
  if (approvals === undefined || approvals === null) return { ok: true, policy: emptyPolicy() };
  const problems: PolicyProblem[] = [];
  if (!isObject(approvals)) return { ok: false, problems: [{ path: where, problem: 'must be an object like {"rules": [...], "unmatched": "ask"}' }] };
  for (const key of Object.keys(approvals)) {
    if (!['rules', 'unmatched', 'file'].includes(key)) problems.push({ path: `${where}.${key}`, problem: `unknown key "${key}" (expected rules, unmatched, file)` });
  }
  const rules: CompiledRule[] = [];
  const sources: string[] = [];
  let unmatched: RuleDecision | undefined;
  if (approvals.unmatched !== undefined) {
    if (isDecision(approvals.unmatched)) unmatched = approvals.unmatched;
    else problems.push({ path: `${where}.unmatched`, problem: `unknown decision ${JSON.stringify(approvals.unmatched)} (use ${DECISIONS.join(', ')})` });
  }
  if (approvals.rules !== undefined) {
    if (!Array.isArray(approvals.rules)) problems.push({ path: `${where}.rules`, problem: 'must be an array of rules' });
    else {
      sources.push('config');
      approvals.rules.forEach((r, i) => checkRule(r, `${where}.rules[${i}]`, 'config', rules, problems));
    }
  }
  if (approvals.file !== undefined) {
    if (typeof approvals.file !== 'string' || approvals.file === '') problems.push({ path: `${where}.file`, problem: 'must be the path of a JSON policy file' });
    else unmatched = readPolicyFile(approvals.file, opts, rules, problems, sources) ?? unmatched;
  }
  const ids = new Map<string, string>();
  rules.forEach((r, i) => {
    const first = ids.get(r.id);
    if (first !== undefined) problems.push({ path: placeOf(r, i), problem: `duplicate id "${r.id}" (already used at ${first})` });
    else ids.set(r.id, placeOf(r, i));
  });
  if (problems.length) return { ok: false, problems };
  return { ok: true, policy: { rules, unmatched: unmatched ?? 'ask', sources } };
}

const places = new WeakMap<CompiledRule, string>();
function placeOf(r: CompiledRule, i: number): string {
  return places.get(r) ?? `rule ${i}`;
}

function readPolicyFile(file: string, opts: CompileOptions, rules: CompiledRule[], problems: PolicyProblem[], sources: string[]): RuleDecision | undefined {
  const path = isAbsolute(file) ? file : resolve(opts.baseDir ?? process.cwd(), file);
  let text: string;
  try {
    text = (opts.readFile ?? ((p: string) => readFileSync(p, 'utf8')))(path);
  } catch (err) {
    problems.push({ path: `${path}`, problem: `cannot read the policy file: ${(err as Error).message}` });
    return undefined;
  }
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    problems.push({ path: `${path}`, problem: `bad JSON: ${(err as Error).message}` });
    return undefined;
  }
  if (!isObject(doc)) {
    problems.push({ path: `${path}`, problem: 'must be a JSON object like {"rules": [...], "unmatched": "ask"}' });
    return undefined;
  }
  for (const key of Object.keys(doc)) {
    if (key !== 'rules' && key !== 'unmatched') problems.push({ path: `${path}: ${key}`, problem: `unknown key "${key}" (expected rules, unmatched)` });
  }
  sources.push(path);
  if (!Array.isArray(doc.rules)) problems.push({ path: `${path}: rules`, problem: 'must be an array of rules' });
  else doc.rules.forEach((r, i) => checkRule(r, `${path}: rules[${i}]`, 'file', rules, problems));
  if (doc.unmatched === undefined) return undefined;
  if (isDecision(doc.unmatched)) return doc.unmatched;
  problems.push({ path: `${path}: unmatched`, problem: `unknown decision ${JSON.stringify(doc.unmatched)} (use ${DECISIONS.join(', ')})` });
  return undefined;
}

function checkRule(raw: unknown, at: string, layer: string, out: CompiledRule[], problems: PolicyProblem[]): void {
  if (!isObject(raw)) {
    problems.push({ path: at, problem: 'a rule must be an object {id, rule, decision, agents?, reason?, args?, tests?}' });
    return;
  }
  const before = problems.length;
  for (const key of Object.keys(raw)) if (!RULE_KEYS.has(key)) problems.push({ path: `${at}.${key}`, problem: `unknown key "${key}"` });
  if (typeof raw.id !== 'string' || raw.id.trim() === '') problems.push({ path: `${at}.id`, problem: 'must be a non-empty string' });
  const parsed = parseRule(raw.rule);
  if (!parsed.ok) problems.push({ path: `${at}.rule`, problem: `outside the rule grammar: ${parsed.why}` });
  if (!isDecision(raw.decision)) problems.push({ path: `${at}.decision`, problem: `unknown decision ${JSON.stringify(raw.decision)} (use ${DECISIONS.join(', ')})` });
  if (raw.reason !== undefined && typeof raw.reason !== 'string') problems.push({ path: `${at}.reason`, problem: 'must be a string' });
  if (raw.agents !== undefined) {
    if (!Array.isArray(raw.agents) || raw.agents.length === 0) problems.push({ path: `${at}.agents`, problem: 'must be a non-empty array of agent id globs' });
    else raw.agents.forEach((g, k) => {
      if (typeof g !== 'string' || !AGENT_GLOB.test(g)) problems.push({ path: `${at}.agents[${k}]`, problem: `${JSON.stringify(g)} is not an agent id glob (letters, digits, _ . : @ - and the wildcards * ?)` });
    });
  }
  if (raw.args !== undefined) {
    if (parsed.ok && (parsed.rule.kind === 'bash' || (parsed.rule.kind === 'tool' && parsed.rule.tool === 'Bash'))) {
      problems.push({ path: `${at}.args`, problem: 'args is for MCP and SDK tools; a Bash rule matches the command itself' });
    } else {
      const args = compileArgs(raw.args, `${at}.args`);
      if (!args.ok) problems.push(...args.problems);
    }
  }
  const tests = checkTestsShape(raw.tests, `${at}.tests`, problems);
  if (problems.length > before) return;
  const rule = { ...(raw as unknown as CompiledRule), layer };
  places.set(rule, at);
  runTests(rule, tests, `${at}.tests`, problems);
  out.push(rule);
}

function checkTestsShape(tests: unknown, at: string, problems: PolicyProblem[]): { match: string[]; notMatch: string[] } {
  const none = { match: [], notMatch: [] };
  if (tests === undefined) return none;
  if (!isObject(tests)) {
    problems.push({ path: at, problem: 'must be {match?: [...], notMatch?: [...]} of tool rules like "Bash(git push origin main)"' });
    return none;
  }
  const out = { match: [] as string[], notMatch: [] as string[] };
  for (const key of Object.keys(tests)) {
    const list = tests[key];
    if (key !== 'match' && key !== 'notMatch') problems.push({ path: `${at}.${key}`, problem: `unknown key "${key}" (expected match, notMatch)` });
    else if (!Array.isArray(list) || list.some((x) => typeof x !== 'string')) problems.push({ path: `${at}.${key}`, problem: 'must be an array of strings' });
    else out[key] = list as string[];
  }
  return out;
}

/** G9/G10: every rule's examples run at load; a failing one stops the policy from loading. */
function runTests(rule: CompiledRule, tests: { match: string[]; notMatch: string[] }, at: string, problems: PolicyProblem[]): void {
  const m = matcherFor(rule);
  const check = (example: string, want: boolean, path: string) => {
    const facts = exampleFacts(example);
    if (typeof facts === 'string') {
      problems.push({ path, problem: `${JSON.stringify(example)} is not a tool request: ${facts}` });
      return;
    }
    const split = facts.tool === 'Bash' ? splitCommand(String(facts.input.command)) : undefined;
    const got = ruleMatches(m, facts, rule.decision, split);
    if (got !== want) problems.push({ path, problem: `failing test: "${rule.rule}" ${want ? 'does not match' : 'matches'} ${JSON.stringify(example)}` });
  };
  tests.match.forEach((e, k) => check(e, true, `${at}.match[${k}]`));
  tests.notMatch.forEach((e, k) => check(e, false, `${at}.notMatch[${k}]`));
}
