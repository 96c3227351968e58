import { AskdockError, type Session } from '../../protocol/index.ts';
import type { Identity } from '../auth.ts';
import type { Store } from '../store/types.ts';
import { canReadSession, type SessionLike } from './visibility.ts';

/**
 * Who a session belongs to (creator, agent), cached: sessions never change creator or agent, so the lookup every
 * fan-out and every access check makes costs no query once read.
 */
export class SessionAccess {
  private readonly access = new Map<string, SessionLike>();

  constructor(
    private readonly store: Store,
    /** A6: the agent of sessions stored before binding. */
    private readonly defaultAgentId: string | null,
  ) {}

  /** A6: sessions stored before binding belong to the default agent. */
  resolve(session: Session): Session {
    return session.agentId !== null ? session : { ...session, agentId: this.defaultAgentId };
  }

  readonly accessOf = async (sessionKey: string): Promise<SessionLike | undefined> => {
    const hit = this.access.get(sessionKey);
    if (hit !== undefined) return hit;
    const stored = await this.store.getSession(sessionKey);
    if (!stored) return undefined;
    const { createdBy, agentId } = this.resolve(stored);
    const access = { createdBy, agentId };
    this.access.set(sessionKey, access);
    return access;
  };

  /** What accessOf found before (a fan-out reads it ahead: prepareView), without waiting. */
  readonly cached = (sessionKey: string): SessionLike | undefined => this.access.get(sessionKey);

  readonly ownerOf = async (sessionKey: string): Promise<string | undefined> => (await this.accessOf(sessionKey))?.createdBy;

  /** After a rollback: what was read from its writes is forgotten. */
  clear(): void {
    this.access.clear();
  }

  /** A session as stored, with its agent resolved (A6). */
  async getSession(sessionKey: string): Promise<Session | undefined> {
    const stored = await this.store.getSession(sessionKey);
    return stored && this.resolve(stored);
  }

  /**
   * A4/A6: a session this identity may not read answers SESSION_NOT_FOUND, as if it did not exist.
   * Only key, creator and agent, from the access cache: checking access costs no query on the request path.
   */
  async readableSession(identity: Identity, sessionKey: string): Promise<SessionLike & { key: string }> {
    const access = await this.accessOf(sessionKey);
    if (!access || !canReadSession(identity, access))
      throw new AskdockError('SESSION_NOT_FOUND', `no session "${sessionKey}"`, { details: { sessionKey } });
    return { key: sessionKey, ...access };
  }
}
