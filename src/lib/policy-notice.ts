/**
 * G6: the one-line `system` message the gateway adds to a session when the policy, a grant or a person allows or
 * denies an approval: `✓ Allowed Bash(npm run test) · rule npm-tests`, `✕ Denied Bash(rm -rf /) · rule no-rm`.
 * Read here once so the Control UI and the TUI show it the same quiet way. Pure: no I/O.
 */

/** One ` · ` part after the request: words, and the rule or grant id they name (shown as code), if any. */
export type NoticePart = { words: string; id?: string };

export type PolicyNotice = {
  outcome: 'allowed' | 'denied';
  /** What was asked for, as G6 names it: `Bash(npm run test)`, `Edit(src/a.ts)`, `mcp__github__create_issue`. */
  request: string;
  /** Who or what decided: `rule npm-tests`, `grant g_1`, `rules a, b`, `by ana`, `no rule matched`. */
  parts: NoticePart[];
};

const HEAD = /^(✓ Allowed|✕ Denied) (.+)$/su;
const NAMED = /^(rules?|grant) (\S.*)$/s;
const SEP = ' · ';

/** A G6 notice read from a system message's text, or null when the text is something else. */
export function readPolicyNotice(text: string): PolicyNotice | null {
  const head = HEAD.exec(text.trim());
  if (!head || text.includes('\n')) return null;
  const [request, ...rest] = head[2].split(SEP);
  if (!request.trim()) return null;
  const parts = rest.map((part): NoticePart => {
    const named = NAMED.exec(part);
    return named ? { words: named[1], id: named[2] } : { words: part };
  });
  return { outcome: head[1].startsWith('✓') ? 'allowed' : 'denied', request, parts };
}
