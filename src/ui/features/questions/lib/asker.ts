/**
 * Who asks, as the dock's header names it: the asking identity (the record's `askedBy`) and, where the session is a
 * client's own (`<client or server name> · <folder>`, T6/X5: an MCP client, or the server `askdock mcp-proxy` wraps),
 * that name first, since it is what the person started.
 */
export type Asker = { name: string; via?: string };

const OWN_SESSION = /^(.+?) · .+$/;
/** Titles that name a place rather than a client: a channel's chat, the CLI. */
const NOT_A_CLIENT = /^(telegram|slack|discord|askdock(\s+\w+)?)$/i;

export function askerOf(askedBy: string, sessionTitle: string | undefined): Asker {
  const client = sessionTitle?.match(OWN_SESSION)?.[1]?.trim();
  if (!client || NOT_A_CLIENT.test(client) || client === askedBy) return { name: askedBy };
  return { name: client, via: askedBy };
}
