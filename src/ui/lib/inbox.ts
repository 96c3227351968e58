import type { QuestionRecord } from '../../protocol/index.ts';

/**
 * U15: the Inbox docks the questions asked without a session. It is keyed like a session everywhere a dock is
 * (drafts, dock state, summaries); no session key can look like this one (they are `s_…`).
 */
export const INBOX_KEY = '~inbox';
export const INBOX_PATH = '/inbox';

/** Where a question docks: its session, or the Inbox. */
export function dockKeyOf(record: Pick<QuestionRecord, 'sessionKey'>): string {
  return record.sessionKey ?? INBOX_KEY;
}
