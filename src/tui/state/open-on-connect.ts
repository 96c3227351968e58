/** What the first session open needs of the TUI's actions and store. */
export type SessionOpener = {
  openInitial(sessionKey?: string): Promise<void>;
  reload(): Promise<void>;
  hasSession(): boolean;
  failed(err: unknown): void;
};

/**
 * V1/V6: what each (re)connect does: the first opens a session (`--session`, the newest, or a new one), later ones
 * reload the open session. A first open that failed is tried again on the next connect; a connect while it is still
 * under way starts no second open (with no session yet that would create two), but has it tried again if it fails.
 */
export function openOnConnect(opener: SessionOpener, sessionKey?: string): () => void {
  let opened = false;
  let opening = false;
  let connectedMeanwhile = false;
  const onConnect = (): void => {
    if (opening) {
      connectedMeanwhile = true;
      return;
    }
    if (opened && opener.hasSession()) {
      void opener.reload().catch(opener.failed);
      return;
    }
    opened = true;
    opening = true;
    connectedMeanwhile = false;
    void opener
      .openInitial(sessionKey)
      .catch(opener.failed)
      .finally(() => {
        opening = false;
        if (connectedMeanwhile && !opener.hasSession()) onConnect();
      });
  };
  return onConnect;
}
