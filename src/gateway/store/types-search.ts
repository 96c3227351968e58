/** U19: where a search looks. The gateway narrows it to what the identity may read, then checks each hit (A3). */
export type SearchScope = {
  /** Lower-case words; each must start a word of the text (see src/lib/search-text.ts). */
  terms: string[];
  /** Sessions whose titles and messages may match; null: every session. */
  sessionKeys: readonly string[] | null;
  /** Which question records may match; null: none. */
  questions: {
    /** Sessions whose questions may match; null: every session. */
    sessionKeys: readonly string[] | null;
    /** Sessionless questions may match too. */
    sessionless: boolean;
    /** Only the questions this identity asked (an agent's). */
    askedBy?: string;
    /** Privileged questions may match too (A3); absent: they may not. */
    privileged?: boolean;
  } | null;
  /**
   * Which replies to privileged questions (A3) may match: every one, those to questions `askedBy` asked, or (absent) none.
   * The stores test it in their index, so a reply that may not match is never a candidate (no count or time betrays it).
   */
  privilegedReplies?: 'every' | { askedBy: string };
  /** At most this many of each kind, newest first. */
  limit: number;
};

/** A3: the time of a session's newest reply to a privileged question `askedBy` asked. */
export type LatestPrivilegedReply = { sessionKey: string; askedBy: string; atMs: number };
/** Every asker's replies, or only those to `askedBy`'s questions; in every session, or only in these. */
export type PrivilegedReplyFilter = { askedBy?: string; sessionKeys?: readonly string[] };

export type SearchCandidate = {
  kind: 'session' | 'message' | 'question';
  id: string;
  sessionKey: string | null;
  /** The text that matched: the title, the message, or the question's headers, wording and answers. */
  text: string;
  atMs: number;
  /** A message that answers a question (Q9/PT5): it is as visible as that question (A3). */
  replyToQuestionId?: string;
};

/** U19: the search's part of the store, from an index (SQLite FTS5, PostgreSQL full-text), never a scan of every message. */
export interface SearchStoreMethods {
  /** Up to `scope.limit` newest matches of each kind: session titles, messages, question records. */
  search(scope: SearchScope): SearchCandidate[];
}
