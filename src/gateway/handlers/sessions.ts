import type { Session } from '../../protocol/index.ts';
import { newId } from '../ids.ts';
import type { HandlerTable } from './types.ts';

const DEFAULT_TITLE = 'New session';

/** C1: sessions.create and sessions.list. */
export const sessionHandlers: Pick<HandlerTable, 'sessions.create' | 'sessions.list'> = {
  'sessions.create': (p, { core, conn }) => {
    const title = p.title?.trim() || DEFAULT_TITLE;
    const row = { key: newId('s'), title, createdBy: conn.identity.id, createdAtMs: core.clock.now(), lastMessageAtMs: null };
    const session: Session = core.hub.commit((tx) => {
      core.store.createSession(row);
      const created = core.store.getSession(row.key) ?? { ...row, pendingQuestions: 0 };
      tx.emit('session.updated', { session: created }, { sessionKey: row.key });
      return created;
    });
    return { session: core.sessionFor(conn.identity, session) };
  },
  'sessions.list': (_p, { core, conn }) => ({ sessions: core.visibleSessions(conn.identity) }),
};
