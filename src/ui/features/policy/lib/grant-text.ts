import type { PolicyGrant, PolicyDecision } from '../../../../protocol/policy.ts';

/** G5: where a grant applies, in words, and the one value it binds to (shown as code), if the gateway named it. */
export function grantReach(grant: Pick<PolicyGrant, 'scope' | 'sessionKey' | 'project' | 'agent'>): { words: string; value?: string } {
  switch (grant.scope) {
    case 'session':
      return { words: 'This session', value: grant.sessionKey };
    case 'project':
      return { words: 'Project', value: grant.project };
    case 'agent':
      return { words: 'Agent', value: grant.agent };
    case 'everyone':
      return { words: 'Everyone' };
  }
}

/** When a grant ends, read at a glance: "in 40 min", "in 5 h", "in 6 days", "ended". */
export function endsIn(expiresAt: number, nowMs: number): string {
  const minutes = Math.round((expiresAt - nowMs) / 60_000);
  if (minutes <= 0) return 'ended';
  if (minutes < 60) return `in ${minutes} min`;
  const hours = Math.round(minutes / 60);
  if (hours < 48) return `in ${hours} h`;
  return `in ${Math.round(hours / 24)} days`;
}

export const DECISION_WORD: Record<PolicyDecision, string> = { allow: 'Allow', ask: 'Ask', deny: 'Deny' };

/** A rule layer's heading and the config key it comes from: the config's `approvals.rules`, or the file `approvals.file` names. */
export function layerTitle(layer: string): { title: string; key?: string } {
  if (layer === 'config') return { title: 'Config', key: 'approvals.rules' };
  if (layer === 'file') return { title: 'Policy file', key: 'approvals.file' };
  return { title: layer };
}
