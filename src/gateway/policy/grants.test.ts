import { describe, expect, it } from 'vitest';
import type { StoredGrant } from '../store/types.ts';
import { GRANT_MAX_MS, grantApplies, grantBinding, grantExpiry } from './grants.ts';

const DAY = 24 * 60 * 60 * 1000;
const grant = (over: Partial<StoredGrant>): StoredGrant => ({ id: 'g', rule: 'Bash(npm run build *)', scope: 'everyone', expiresAt: 1, grantedBy: 'op', questionId: 'q', createdAtMs: 0, ...over });

describe('grant scopes and lifetimes (G5)', () => {
  it('[G5] a session grant lasts 30 days, the wider ones 7, and none past 30', () => {
    expect(grantExpiry('session', 1000)).toBe(1000 + 30 * DAY);
    for (const scope of ['project', 'agent', 'everyone'] as const) expect(grantExpiry(scope, 1000)).toBe(1000 + 7 * DAY);
    expect(GRANT_MAX_MS).toBe(30 * DAY);
  });

  it('[G5] each scope binds to what it names, and says why when there is nothing to bind to', () => {
    const place = { sessionKey: 's1', project: '/repo', agent: 'claude' };
    expect(grantBinding('session', place)).toEqual({ sessionKey: 's1' });
    expect(grantBinding('project', place)).toEqual({ project: '/repo' });
    expect(grantBinding('agent', place)).toEqual({ agent: 'claude' });
    expect(grantBinding('everyone', place)).toEqual({});
    expect(grantBinding('session', { agent: 'claude' })).toBe('the question has no session');
    expect(grantBinding('project', { agent: 'claude' })).toBe('the approval names no folder (cwd)');
  });

  it('[G5] a grant reaches only requests in its scope: its session, its folder and those under it, its agent', () => {
    expect(grantApplies(grant({ scope: 'session', sessionKey: 's1' }), { sessionKey: 's1', agent: 'a' })).toBe(true);
    expect(grantApplies(grant({ scope: 'session', sessionKey: 's1' }), { sessionKey: 's2', agent: 'a' })).toBe(false);
    expect(grantApplies(grant({ scope: 'session', sessionKey: 's1' }), { agent: 'a' })).toBe(false);
    expect(grantApplies(grant({ scope: 'project', project: '/repo' }), { project: '/repo/src', agent: 'a' })).toBe(true);
    expect(grantApplies(grant({ scope: 'project', project: '/repo' }), { project: '/repo', agent: 'a' })).toBe(true);
    expect(grantApplies(grant({ scope: 'project', project: '/repo' }), { project: '/repository', agent: 'a' })).toBe(false);
    expect(grantApplies(grant({ scope: 'project', project: '/repo' }), { agent: 'a' })).toBe(false);
    expect(grantApplies(grant({ scope: 'agent', agent: 'a' }), { agent: 'b' })).toBe(false);
    expect(grantApplies(grant({ scope: 'everyone' }), { agent: 'b' })).toBe(true);
  });
});
