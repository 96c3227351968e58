import { AskdockError, invalidRequest, type Params, type Session } from '../../protocol/index.ts';
import type { Identity } from '../auth.ts';
import type { Core } from '../core.ts';
import { newId } from '../infra/ids.ts';
import { canRenameSession, forbidden } from '../sessions/visibility.ts';
import type { HandlerTable } from './types.ts';

export const UNTITLED = 'New session';
const FIRST_MESSAGE_TITLE_MAX = 60;

/** U15: an untitled session takes its title from its first message: the first line, cut at a word. */
export function titleFromMessage(text: string): string {
  const line = text.trim().split('\n')[0].replace(/\s+/g, ' ').trim();
  if (line.length <= FIRST_MESSAGE_TITLE_MAX) return line || UNTITLED;
  const cut = line.slice(0, FIRST_MESSAGE_TITLE_MAX - 1);
  const atWord = cut.lastIndexOf(' ');
  return `${(atWord > 20 ? cut.slice(0, atWord) : cut).trimEnd()}…`;
}

/** A6: the agent a new session is bound to, and who creates it. */
function binding(core: Core, identity: Identity, p: Params<'sessions.create'>): { agentId: string | null; createdBy: string } {
  if (identity.role === 'agent') {
    if (p.agentId !== undefined && p.agentId !== identity.id)
      throw forbidden(`sessions.create for agent "${p.agentId}"`, ['operator.admin', 'operator.write', 'operator.sessions.write'], identity);
    return { agentId: identity.id, createdBy: identity.owner ?? identity.id };
  }
  if (p.agentId !== undefined && !core.auth.agentIds.has(p.agentId))
    throw invalidRequest('sessions.create', [{ path: 'agentId', problem: `"${p.agentId}" is not an agent identity of this gateway` }]);
  return { agentId: p.agentId ?? core.auth.defaultAgentId, createdBy: identity.id };
}

/** C1: sessions.create (A6 binding, idempotent by key), sessions.update and sessions.list. */
export const sessionHandlers: Pick<HandlerTable, 'sessions.create' | 'sessions.update' | 'sessions.list'> = {
  'sessions.create': async (p, { core, conn }) => {
    const { identity } = conn;
    const { agentId, createdBy } = binding(core, identity, p);
    const idem = p.idempotencyKey !== undefined ? { identity: identity.id, key: p.idempotencyKey } : undefined;
    const madeBefore = async () => {
      const first = idem && (await core.store.sessionByIdempotencyKey(idem.identity, idem.key));
      return first && { session: await core.sessionFor(identity, core.resolve(first)) };
    };
    const known = await madeBefore();
    if (known) return known;
    const title = p.title?.trim() || UNTITLED;
    const row = { key: newId('s'), title, createdBy, agentId, createdAtMs: core.clock.now(), lastMessageAtMs: null };
    let session: Session;
    try {
      session = await core.hub.commit(async (tx) => {
        await core.store.createSession(row, idem);
        const created = (await core.getSession(row.key)) ?? { ...row, pendingQuestions: 0 };
        await tx.emit('session.updated', { session: created }, { sessionKey: row.key });
        return created;
      });
    } catch (err) {
      // A twin of this request (a retry racing its original) stored the key first: the key's unique index refused this
      // one, and the session is the twin's, once what this gateway has open is committed (the twin may be in it).
      if (!idem) throw err;
      await new Promise((ok) => core.hub.whenDurable(ok));
      const twin = await madeBefore().catch(() => undefined);
      if (twin) return twin;
      throw err;
    }
    return { session: (await core.sessionFor(identity, session)) };
  },

  'sessions.update': async (p, { core, conn }) => {
    const { identity } = conn;
    const access = await core.readableSession(identity, p.sessionKey);
    if (!canRenameSession(identity, access))
      throw new AskdockError('FORBIDDEN', `only the creator of session "${p.sessionKey}" or operator.admin may rename it`, {
        details: { sessionKey: p.sessionKey, needed: ['operator.admin'] },
      });
    const session = await core.hub.commit(async (tx) => {
      await core.store.renameSession(p.sessionKey, p.title);
      await core.emitSessionUpdated(tx, p.sessionKey);
      return (await core.getSession(p.sessionKey))!;
    }, p.sessionKey);
    return { session: (await core.sessionFor(identity, session)) };
  },

  'sessions.list': async (_p, { core, conn }) => ({ sessions: (await core.visibleSessions(conn.identity)) }),
};
