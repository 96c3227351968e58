/** G8: Claude Code settings.json `permissions.allow/ask/deny` as askdock rules. */
import { parseRule } from '../grammar.ts';
import type { PolicyImport, RuleDecision, RuleSpec } from '../types.ts';

const LISTS: [string, RuleDecision][] = [['deny', 'deny'], ['ask', 'ask'], ['allow', 'allow']];

function slug(s: string): string {
  return s.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 48) || 'rule';
}

export function importClaudeCode(files: { path: string; text: string }[]): PolicyImport {
  const out: PolicyImport = { policy: { rules: [] }, refused: [], warnings: [] };
  const ids = new Set<string>();
  for (const file of files) {
    let doc: unknown;
    try {
      doc = JSON.parse(file.text);
    } catch (err) {
      out.refused.push({ file: file.path, rule: '(the whole file)', why: `bad JSON: ${(err as Error).message}` });
      continue;
    }
    const perms = (doc as { permissions?: unknown } | null)?.permissions;
    if (typeof perms !== 'object' || perms === null) {
      out.warnings.push(`${file.path}: no "permissions" block; nothing to import`);
      continue;
    }
    for (const [key, decision] of LISTS) {
      const list = (perms as Record<string, unknown>)[key];
      if (list === undefined) continue;
      if (!Array.isArray(list)) {
        out.refused.push({ file: file.path, rule: `permissions.${key}`, why: 'must be an array of rules' });
        continue;
      }
      for (const rule of list) {
        const parsed = parseRule(rule);
        if (!parsed.ok) {
          out.refused.push({ file: file.path, rule: String(rule), why: parsed.why });
          continue;
        }
        let id = `${decision}-${slug(rule as string)}`;
        for (let k = 2; ids.has(id); k++) id = `${decision}-${slug(rule as string)}-${k}`;
        ids.add(id);
        const spec: RuleSpec = { id, rule: rule as string, decision };
        out.policy.rules.push(spec);
      }
    }
  }
  return out;
}
