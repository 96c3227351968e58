/** G6/G7: how a request is named in notices, the rule "Always allow" would make, and the digest an Allow binds to. */
import { createHash } from 'node:crypto';
import { posix } from 'node:path';
import canonicalize from 'canonicalize';
import { decide } from './decide.ts';
import { parseRule, PATH_TOOLS } from './grammar.ts';
import { splitCommand } from './parts.ts';
import { requestPath } from './paths.ts';
import type { ApprovalFacts } from './types.ts';

/**
 * How many leading words the offered rule keeps: the command name alone (`ls *`), plus the subcommand for tools whose
 * second word is one (`git push *`, not `git *`), plus the script for a runner's `run`/`exec` (`npm run test *`).
 */
const SUBCOMMAND_TOOLS = new Set(['npm', 'yarn', 'pnpm', 'bun', 'npx', 'git', 'cargo', 'docker', 'kubectl', 'go', 'pip', 'pip3', 'uv', 'poetry', 'make', 'gh', 'helm', 'terraform', 'dotnet', 'mvn', 'gradle']);
const RUNNERS = new Set(['run', 'run-script', 'exec', 'x']);
const PLAIN_WORD = /^[A-Za-z0-9_@%+=:,./-]+$/;

function bashOffer(command: unknown): string | null {
  if (typeof command !== 'string' || command.includes('\n')) return null;
  const split = splitCommand(command);
  // A compound command, a substitution or a writing redirection: no rule can be formed safely.
  if (split.hazards.length || split.parts.length !== 1 || split.statements !== 1) return null;
  const words = split.parts[0].text.split(' ');
  const name = words[0];
  if (!name || !PLAIN_WORD.test(name)) return null;
  const lead = [name];
  if (SUBCOMMAND_TOOLS.has(name) && words.length > 1) {
    // The rule's words must be the command's first words, so a flag before the subcommand (git -C dir status)
    // leaves no narrow rule, and a rule of the tool's name alone would be too broad.
    const [sub, next] = [words[1], words[2]];
    if (sub.startsWith('-') || !PLAIN_WORD.test(sub)) return null;
    lead.push(sub);
    if (RUNNERS.has(sub) && next !== undefined && !next.startsWith('-') && PLAIN_WORD.test(next)) lead.push(next);
  }
  return `Bash(${lead.join(' ')} *)`;
}

function pathOffer(facts: ApprovalFacts): string | null {
  const root = facts.projectRoot ?? facts.cwd;
  const file = requestPath(facts.input, { cwd: facts.cwd, projectRoot: facts.projectRoot });
  if (!root || !file) return null;
  const rel = posix.relative(posix.normalize(root), posix.dirname(file));
  if (rel.startsWith('..') || posix.isAbsolute(rel) || /[*?[\]()]/.test(rel)) return null;
  const tool = ['MultiEdit', 'NotebookEdit'].includes(facts.tool) ? 'Edit' : facts.tool;
  return `${tool}(/${rel ? `${rel}/` : ''}**)`;
}

/**
 * G7: the rule "Always allow" offers: the agent's first suggestion that would let this very request through, else
 * askdock's own if it would; null where no rule can. An agent's suggestion may cover less than its request (Claude
 * Code suggests `Bash(tee -a log.txt)` for `echo x | tee -a log.txt`, leaving out the part it deems read-only), and a
 * grant of it would ask again for the same command (G3 judges every part).
 */
export async function offeredRule(facts: ApprovalFacts, suggestions: readonly string[] = []): Promise<string | null> {
  let own: string | null;
  try {
    own = ownOffer(facts);
  } catch {
    own = null; // a request askdock cannot read offers no rule of its own
  }
  for (const rule of [...suggestions.filter((s) => parseRule(s).ok), ...(own !== null ? [own] : [])]) {
    if (await grantCovers(facts, rule)) return rule;
  }
  return null;
}

/** Whether a grant of `rule`, with no other rule in force, allows the request (every part of a command, G3). */
async function grantCovers(facts: ApprovalFacts, rule: string): Promise<boolean> {
  const verdict = await decide({ rules: [], unmatched: 'ask', sources: [] }, facts, [{ id: 'offer', rule }]);
  return verdict.decision === 'allow';
}

function ownOffer(facts: ApprovalFacts): string | null {
  let rule: string | null = null;
  if (facts.tool === 'Bash') rule = bashOffer(facts.input.command);
  else if ((PATH_TOOLS as readonly string[]).includes(facts.tool)) rule = pathOffer(facts);
  else if (facts.tool === 'WebFetch' && typeof facts.input.url === 'string') {
    try {
      rule = `WebFetch(domain:${new URL(facts.input.url).hostname.toLowerCase()})`;
    } catch {
      rule = null;
    }
  } else rule = facts.tool;
  return rule !== null && parseRule(rule).ok ? rule : null;
}

const DESCRIBE_MAX = 200;

/** G6: a request named like a rule: `Bash(npm run test)`, `Edit(src/a.ts)`, `mcp__github__create_issue`. */
export function describeRequest(facts: ApprovalFacts): string {
  const clip = (s: string) => {
    const one = s.replace(/\s*\n\s*/g, ' ⏎ ');
    return one.length > DESCRIBE_MAX ? `${one.slice(0, DESCRIBE_MAX - 1)}…` : one;
  };
  if (facts.tool === 'Bash' && typeof facts.input.command === 'string') return `Bash(${clip(facts.input.command)})`;
  if ((PATH_TOOLS as readonly string[]).includes(facts.tool)) {
    const file = requestPath(facts.input, { cwd: facts.cwd, projectRoot: facts.projectRoot });
    if (file) {
      const base = facts.projectRoot ?? facts.cwd;
      const rel = base ? posix.relative(base, file) : '';
      return `${facts.tool}(${clip(rel && !rel.startsWith('..') ? rel : file)})`;
    }
  }
  if (facts.tool === 'WebFetch' && typeof facts.input.url === 'string') return `WebFetch(${clip(facts.input.url)})`;
  return facts.tool;
}

/** G7: SHA-256 hex of the RFC 8785 JSON of {tool, input, cwd} (cwd null when unknown). */
export function approvalDigest(facts: ApprovalFacts): string {
  const text = canonicalize({ tool: facts.tool, input: facts.input, cwd: facts.cwd ?? null });
  if (text === undefined) throw new Error('the request cannot be written as canonical JSON');
  return createHash('sha256').update(text).digest('hex');
}
