import { createHash } from 'node:crypto';
import type { ChannelParts } from './parts.ts';
import type { ChannelName } from './registry.ts';

/** Where a question was posted, and whether its outcome is shown there yet (H5). */
export type PostRecord = { conversation: string; ref?: string; outcomeShown?: boolean };

/** A short, stable stand-in for a question id in button data (Telegram allows 64 bytes of it). */
export function questionToken(questionId: string): string {
  return createHash('sha256').update(questionId).digest('base64url').slice(0, 16);
}

/**
 * What a channel must remember across restarts, in the store's meta table (so it works on every store):
 * conversation <-> session (H2), and per posted question its message and its button token.
 */
export class ChannelBindings {
  constructor(
    private readonly parts: Pick<ChannelParts, 'store' | 'hub'>,
    private readonly name: ChannelName,
  ) {}

  private key(kind: string, id: string): string {
    return `channel.${this.name}.${kind}.${id}`;
  }

  private async get(kind: string, id: string): Promise<string | undefined> {
    return await this.parts.store.getMeta(this.key(kind, id));
  }

  private async set(entries: [kind: string, id: string, value: string][]): Promise<void> {
    await this.parts.hub.commit(async () => {
      for (const [kind, id, value] of entries) (await this.parts.store.setMeta(this.key(kind, id), value));
    });
  }

  sessionOf(conversation: string): Promise<string | undefined> {
    return this.get('conversation', conversation);
  }

  conversationOf(sessionKey: string): Promise<string | undefined> {
    return this.get('session', sessionKey);
  }

  bind(conversation: string, sessionKey: string): Promise<void> {
    return this.set([
      ['conversation', conversation, sessionKey],
      ['session', sessionKey, conversation],
    ]);
  }

  async post(questionId: string): Promise<PostRecord | undefined> {
    const raw = await this.get('post', questionId);
    return raw ? (JSON.parse(raw) as PostRecord) : undefined;
  }

  /** H4: `record.ref` and `earlierParts` (a prompt posted in parts) each lead a reply to them back to the question. */
  savePost(questionId: string, record: PostRecord, earlierParts: readonly string[] = []): Promise<void> {
    const refs = [...earlierParts, ...(record.ref ? [record.ref] : [])];
    return this.set([
      ['post', questionId, JSON.stringify(record)],
      ['token', questionToken(questionId), questionId],
      ...refs.map((ref): [string, string, string] => ['ref', `${record.conversation}\n${ref}`, questionId]),
    ]);
  }

  /** H3/H4: a bot message that belongs to a question (its prompt, or the Force Reply after `Other…`), so a reply to it answers that one. */
  saveRef(conversation: string, ref: string, questionId: string): Promise<void> {
    return this.set([['ref', `${conversation}\n${ref}`, questionId]]);
  }

  questionOfRef(conversation: string, ref: string): Promise<string | undefined> {
    return this.get('ref', `${conversation}\n${ref}`);
  }

  questionOfToken(token: string): Promise<string | undefined> {
    return this.get('token', token);
  }
}
