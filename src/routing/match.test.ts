import { describe, expect, it } from 'vitest';
import { parseRouting } from './config.ts';
import { chooseRoute, globMatches } from './match.ts';
import { simpleToolMatcher } from './tool-matcher.ts';
import type { Route } from './types.ts';

function routesOf(routes: object[]): Route[] {
  const r = parseRouting(
    { escalations: { a: { steps: [{ notify: ['identity:ana'], wait: '5m' }] }, b: { steps: [{ notify: ['identity:ana'], wait: '5m' }] } }, routes },
    { identities: ['ana'], tools: simpleToolMatcher },
  );
  if (!r.ok) throw new Error(JSON.stringify(r.problems));
  return r.routing.routes;
}
const push = { tool: 'Bash', input: { command: 'git push origin main' } };

describe('choosing a route', () => {
  it('[E1] globs: * for any run, ? for one character, the rest literal', () => {
    expect(globMatches('deploy-*', 'deploy-prod')).toBe(true);
    expect(globMatches('deploy-*', 'redeploy-prod')).toBe(false);
    expect(globMatches('s?', 's1')).toBe(true);
    expect(globMatches('a.b', 'aXb')).toBe(false);
    expect(globMatches('mcp-proxy:*', 'mcp-proxy:github')).toBe(true);
  });

  it('[E1] the first matching route wins, in order', () => {
    const routes = routesOf([
      { match: { kind: 'approval', agent: 'deploy-*' }, escalation: 'a' },
      { match: { kind: ['approval', 'question'] }, escalation: 'b' },
    ]);
    expect(chooseRoute(routes, { kind: 'approval', agent: 'deploy-1' }, simpleToolMatcher)).toEqual({ routes: [0], escalation: 'a' });
    expect(chooseRoute(routes, { kind: 'approval', agent: 'build-1' }, simpleToolMatcher)).toEqual({ routes: [1], escalation: 'b' });
    expect(chooseRoute(routes, { kind: 'question' }, simpleToolMatcher)).toEqual({ routes: [1], escalation: 'b' });
    // Nothing matches: not routed, as without routing.
    expect(chooseRoute(routes, { kind: 'secret' }, simpleToolMatcher)).toBeNull();
  });

  it('[E1] a route that names a field the question lacks does not match it', () => {
    const routes = routesOf([{ match: { session: 'prod-*', source: 'hook:*' }, escalation: 'a' }]);
    expect(chooseRoute(routes, { kind: 'question', source: 'hook:codex' }, simpleToolMatcher)).toBeNull();
    expect(chooseRoute(routes, { kind: 'question', source: 'hook:codex', session: 'prod-7' }, simpleToolMatcher)?.escalation).toBe('a');
    expect(chooseRoute(routes, { kind: 'question', source: 'sdk', session: 'prod-7' }, simpleToolMatcher)).toBeNull();
  });

  it('[E1] tool rules match approvals by what they do, through the matcher given', () => {
    const routes = routesOf([{ match: { tool: 'Bash(git push *)' }, escalation: 'a' }]);
    expect(chooseRoute(routes, { kind: 'approval', tool: push }, simpleToolMatcher)?.escalation).toBe('a');
    expect(chooseRoute(routes, { kind: 'approval', tool: { tool: 'Bash', input: { command: 'ls' } } }, simpleToolMatcher)).toBeNull();
    expect(chooseRoute(routes, { kind: 'question' }, simpleToolMatcher)).toBeNull();
    const never = { check: () => null, matches: () => false };
    expect(chooseRoute(routes, { kind: 'approval', tool: push }, never)).toBeNull();
  });

  it('[E1][E5] continue: later routes match too, and each setting comes from the first route that sets it', () => {
    const routes = routesOf([
      { match: { tool: 'Bash(git push *)' }, quorum: 2, continue: true },
      { match: { agent: 'deploy-*' }, escalation: 'a', continue: true },
      { match: {}, escalation: 'b' },
      { match: {}, escalation: 'a' },
    ]);
    expect(chooseRoute(routes, { kind: 'approval', agent: 'deploy-1', tool: push }, simpleToolMatcher)).toEqual({ routes: [0, 1, 2], escalation: 'a', quorum: 2 });
    expect(chooseRoute(routes, { kind: 'approval', agent: 'x', tool: push }, simpleToolMatcher)).toEqual({ routes: [0, 2], escalation: 'b', quorum: 2 });
    // A quorum counts approvals only.
    expect(chooseRoute(routes, { kind: 'question', agent: 'deploy-1' }, simpleToolMatcher)).toEqual({ routes: [1, 2], escalation: 'a' });
  });
});
