import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAskdock } from '../testing/hook-process.ts';

const APPROVALS = {
  rules: [
    { id: 'npm-tests', rule: 'Bash(npm run test *)', decision: 'allow' },
    { id: 'no-push-main', rule: 'Bash(git push origin main)', decision: 'deny', reason: 'main is protected' },
    { id: 'git', rule: 'Bash(git *)', decision: 'allow' },
    { id: 'codex-no-curl', rule: 'Bash(curl *)', decision: 'deny', agents: ['codex'] },
  ],
  unmatched: 'ask',
};

describe('askdock policy check --config, import and bad usage (no gateway)', { timeout: 60_000 }, () => {
  let dir: string;
  let config: string;
  const askdock = (...args: string[]) => runAskdock(args, { cwd: dir });
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'askdock-policy-cli-'));
    config = join(dir, 'askdock.config.json');
    writeFileSync(config, JSON.stringify({ identities: [], approvals: APPROVALS }));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('[G9][G2] --config: the most restrictive matching rule decides; every matching rule is printed with its decision and layer', async () => {
    const out = await askdock('policy', 'check', '--config', config, '--', 'Bash(git push origin main)');
    expect(out.code).toBe(0);
    const lines = out.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe('Bash(git push origin main): deny');
    expect(lines.slice(1).map((l) => l.trim().split(/\s+/).slice(0, 2)).sort()).toEqual([['allow', 'git'], ['deny', 'no-push-main']]);
    expect(out.stdout).toContain('(config)');
  });

  it('[G9] --json is {decision, matchedRules:[{id, rule, decision, layer}]}; no rule matched is the unmatched decision', async () => {
    const allowed = await askdock('policy', 'check', '--config', config, '--json', '--', 'Bash(npm run test -- --run)');
    expect(JSON.parse(allowed.stdout)).toEqual({ decision: 'allow', matchedRules: [{ id: 'npm-tests', rule: 'Bash(npm run test *)', decision: 'allow', layer: 'config' }] });
    const unmatched = await askdock('policy', 'check', '--config', config, '--json', '--', 'Bash(curl https://example.com)');
    expect(JSON.parse(unmatched.stdout)).toEqual({ decision: 'ask', matchedRules: [] });
    const human = await askdock('policy', 'check', '--config', config, '--', 'Bash(curl https://example.com)');
    expect(human.stdout).toBe('Bash(curl https://example.com): ask (no rule matched)\n');
  });

  it('[G9][G1] --agent: a rule for some agents decides only for them', async () => {
    const codex = await askdock('policy', 'check', '--config', config, '--agent', 'codex', '--json', '--', 'Bash(curl https://example.com)');
    expect(JSON.parse(codex.stdout)).toMatchObject({ decision: 'deny', matchedRules: [{ id: 'codex-no-curl' }] });
  });

  it('[G9][G10] a config whose policy does not load: exit 1 naming the file, the place and the problem', async () => {
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ identities: [], approvals: { rules: [{ id: 'x', rule: 'Bash(ls)', decision: 'maybe' }] } }));
    const out = await askdock('policy', 'check', '--config', bad, '--', 'Bash(ls)');
    expect(out.code).toBe(1);
    expect(out.stdout).toBe('');
    expect(out.stderr).toContain(`${bad}: approvals.rules[0].decision`);
    const notJson = join(dir, 'not.json');
    writeFileSync(notJson, '{"approvals": ');
    const broken = await askdock('policy', 'check', '--config', notJson, '--', 'Bash(ls)');
    expect(broken.code).toBe(1);
    expect(broken.stderr).toContain(`askdock policy check: ${notJson}: `);
  });

  it('[G9] bad usage: exit 2 with what is wrong and the usage', async () => {
    const missing = await askdock('policy', 'check', '--config', config);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('TOOL-RULE is missing');
    const notRule = await askdock('policy', 'check', '--config', config, '--', 'git push');
    expect(notRule.code).toBe(2);
    expect(notRule.stderr).toContain('TOOL-RULE: "git push" is not a tool and its argument');
    const unknown = await askdock('policy', 'frobnicate');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('unknown subcommand "frobnicate"');
    const format = await askdock('policy', 'import', 'cursor', 'x.json');
    expect(format.code).toBe(2);
    expect(format.stderr).toContain('unknown format "cursor": claude-code or codex');
    const noId = await askdock('policy', 'revoke');
    expect(noId.code).toBe(2);
    expect(noId.stderr).toContain('ID is missing');
  });

  it('[G8] import claude-code: settings files become policy JSON on stdout; a rule that cannot be expressed is refused on stderr, exit 0', async () => {
    const a = join(dir, 'settings.json');
    const b = join(dir, 'settings.local.json');
    writeFileSync(a, JSON.stringify({ permissions: { allow: ['Bash(npm run test *)', 'Read(./src/**)'], deny: ['Bash(rm -rf *)'], ask: ['WebFetch(domain:example.com)'] } }));
    writeFileSync(b, JSON.stringify({ permissions: { allow: ['Bash(unclosed'] } }));
    const out = await askdock('policy', 'import', 'claude-code', a, b);
    expect(out.code).toBe(0);
    const policy = JSON.parse(out.stdout) as { rules: { rule: string; decision: string }[] };
    expect(policy.rules.map((r) => [r.rule, r.decision]).sort()).toEqual([
      ['Bash(npm run test *)', 'allow'],
      ['Bash(rm -rf *)', 'deny'],
      ['Read(./src/**)', 'allow'],
      ['WebFetch(domain:example.com)', 'ask'],
    ]);
    expect(out.stderr).toContain(`askdock policy import: refused ${b}: Bash(unclosed: `);
    // What it printed loads as a policy file.
    const file = join(dir, 'imported.json');
    writeFileSync(file, out.stdout);
    writeFileSync(join(dir, 'with-file.json'), JSON.stringify({ identities: [], approvals: { file } }));
    const check = await askdock('policy', 'check', '--config', join(dir, 'with-file.json'), '--json', '--', 'Bash(rm -rf /)');
    expect(JSON.parse(check.stdout).decision).toBe('deny');
  });

  it('[G8] import codex: prefix_rule decisions (prompt is ask, forbidden is deny, none is allow with a warning), examples as tests', async () => {
    const rules = join(dir, 'default.rules');
    writeFileSync(
      rules,
      [
        'prefix_rule(pattern = ["git", "push"], decision = "forbidden", justification = "push from CI only", match = ["git push origin main"], not_match = ["git status"])',
        'prefix_rule(pattern = ["npm", "publish"], decision = "prompt")',
        'prefix_rule(pattern = ["ls"])',
        '',
      ].join('\n'),
    );
    const out = await askdock('policy', 'import', 'codex', rules);
    expect(out.code).toBe(0);
    const policy = JSON.parse(out.stdout) as { rules: { rule: string; decision: string; reason?: string; tests?: { match?: string[]; notMatch?: string[] } }[] };
    const push = policy.rules.find((r) => r.decision === 'deny');
    expect(push).toMatchObject({ reason: 'push from CI only' });
    expect(push?.tests?.match?.length).toBe(1);
    expect(policy.rules.map((r) => r.decision).sort()).toEqual(['allow', 'ask', 'deny']);
    expect(out.stderr).toContain('askdock policy import: warning: ');
  });

  it('[G8] a file that cannot be read: exit 1 naming it', async () => {
    const out = await askdock('policy', 'import', 'codex', join(dir, 'missing.rules'));
    expect(out.code).toBe(1);
    expect(out.stderr).toContain(`cannot read ${join(dir, 'missing.rules')}`);
  });
});
