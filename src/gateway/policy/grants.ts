import type { GrantScope } from '../../protocol/index.ts';
import type { StoredGrant } from '../store/types.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
/** G5: nothing lasts past 30 days. */
export const GRANT_MAX_MS = 30 * DAY_MS;
/** G5: how long each scope's grant lasts: a session's as long as allowed, the wider ones a week. */
export const GRANT_LIFETIME_MS: Record<GrantScope, number> = {
  session: GRANT_MAX_MS,
  project: 7 * DAY_MS,
  agent: 7 * DAY_MS,
  everyone: 7 * DAY_MS,
};

/** When a grant of `scope` made at `nowMs` ends, never past 30 days. */
export function grantExpiry(scope: GrantScope, nowMs: number): number {
  return nowMs + Math.min(GRANT_LIFETIME_MS[scope], GRANT_MAX_MS);
}

/** What a request is judged in: its session, its folder and the agent identity asking. */
export type GrantPlace = { sessionKey?: string; project?: string; agent: string };

/** What a grant of `scope` binds to, or why it cannot be made here. */
export function grantBinding(scope: GrantScope, place: GrantPlace): Pick<StoredGrant, 'sessionKey' | 'project' | 'agent'> | string {
  switch (scope) {
    case 'session':
      return place.sessionKey !== undefined ? { sessionKey: place.sessionKey } : 'the question has no session';
    case 'project':
      return place.project !== undefined ? { project: place.project } : 'the approval names no folder (cwd)';
    case 'agent':
      return { agent: place.agent };
    case 'everyone':
      return {};
  }
}

/** A folder and everything under it. */
function within(folder: string, project: string): boolean {
  const root = project.endsWith('/') ? project : `${project}/`;
  return folder === project || folder.startsWith(root);
}

/** G5: whether a live grant reaches a request made here. */
export function grantApplies(g: StoredGrant, place: GrantPlace): boolean {
  switch (g.scope) {
    case 'session':
      return g.sessionKey !== undefined && g.sessionKey === place.sessionKey;
    case 'project':
      return g.project !== undefined && place.project !== undefined && within(place.project, g.project);
    case 'agent':
      return g.agent === place.agent;
    case 'everyone':
      return true;
  }
}
