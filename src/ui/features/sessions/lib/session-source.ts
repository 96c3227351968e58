import type { Session } from '../../../../protocol/index.ts';

/** Where a session comes from, as far as its record tells: a channel's chat, the CLI, an MCP client's own session, or a chat with an agent. */
export type SessionSource = 'channel' | 'cli' | 'mcp' | 'agent';

export const SOURCE_LABEL: Record<SessionSource, string> = {
  channel: 'Channel',
  cli: 'CLI',
  mcp: 'MCP client',
  agent: 'Agent chat',
};

/** `<client name> · <folder>` (T6, X5), `askdock ask · <folder>` (the CLI), `Telegram · <chat>` (a channel). */
const OWN = /^(.+?) · .+$/;

export function sessionSource(session: Pick<Session, 'title'>): SessionSource {
  const name = session.title.trim().match(OWN)?.[1]?.trim();
  if (!name) return 'agent';
  if (/^(telegram|slack|discord)$/i.test(name)) return 'channel';
  if (/^askdock(\s+\w+)?$/i.test(name)) return 'cli';
  return 'mcp';
}
