import { digestOf } from '../../audit/index.ts';
import type { PolicyState } from '../policy/policy-source.ts';
import type { AuditRoom } from './audit-room.ts';

/**
 * L1, in the transaction that announces it: the approval policy was loaded (at start, or read again after a change or
 * SIGHUP): where from, how many rules, and the digest of what is in force; a reload that failed says why (the policy
 * before it stays in force, and its digest is the one recorded).
 */
export async function recordPolicyLoaded(audit: AuditRoom, state: PolicyState, source: string): Promise<void> {
  const { rules, unmatched } = state.policy;
  // Plain data (the compiled rules carry no functions); undefined fields dropped as JSON drops them.
  const policyDigest = digestOf(JSON.parse(JSON.stringify({ rules, unmatched })) as unknown);
  await audit.recordUnread({
    atMs: state.failedAtMs ?? state.loadedAtMs,
    event: 'policy.loaded',
    status: state.error === undefined ? 'loaded' : 'failed',
    detail: { source, rules: rules.length, policyDigest, ...(state.error !== undefined ? { error: state.error } : {}) },
  });
}
