import type { SessionSource } from '../lib/session-source.ts';

const PATHS: Record<SessionSource, React.ReactNode> = {
  // A speech bubble: a chat with the agent
  agent: <path d="M3 3.5h10a1 1 0 0 1 1 1v6a1 1 0 0 1-1 1H7l-3 2.5v-2.5H3a1 1 0 0 1-1-1v-6a1 1 0 0 1 1-1Z" />,
  // A plug: an MCP client's own session
  mcp: <path d="M6 2v3M10 2v3M4.5 5h7v2.5a3.5 3.5 0 0 1-7 0V5ZM8 11v3" />,
  // A prompt: the CLI
  cli: <path d="M2.5 3.5h11v9h-11zM5 7l2 1.5L5 10M8.5 10H11" />,
  // A hash: a channel's chat
  channel: <path d="M6 2.5 5 13.5M11 2.5l-1 11M3 6h10.5M2.5 10H13" />,
};

/** The session's source as a small line icon; decorative, the row names it in words. */
export function SourceIcon({ source }: { source: SessionSource }) {
  return (
    <svg className="session-source" data-source={source} width="16" height="16" viewBox="0 0 16 16" fill="none" stroke="currentColor" strokeWidth="1.4" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true" focusable="false">
      {PATHS[source]}
    </svg>
  );
}
