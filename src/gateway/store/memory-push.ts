import { copyJson } from './shape.ts';
import type { UndoJournal } from './memory-journal.ts';
import type { PushKeys, PushStoreMethods, PushSubscriptionRow } from './types.ts';

/** U17 in memory: the VAPID key pair and the browsers' push subscriptions, oldest first. */
export function memoryPushMethods(journal: Pick<UndoJournal, 'open' | 'undoable' | 'put'>): PushStoreMethods {
  const { open, undoable, put } = journal;
  const pushSubscriptions = new Map<string, PushSubscriptionRow>();
  const pushKeyPair = new Map<'keys', PushKeys>();
  return {
    pushKeys(fresh) {
      open();
      if (!pushKeyPair.has('keys')) put(pushKeyPair, 'keys', copyJson(fresh));
      return copyJson(pushKeyPair.get('keys')!);
    },
    putPushSubscription(sub, keep) {
      open();
      const before = pushSubscriptions.get(sub.endpoint);
      if (before && before.identity !== sub.identity) return { stored: false, reason: 'taken' };
      // Replaced, not updated in place: a re-subscription moves to the end (oldest first).
      if (before) {
        pushSubscriptions.delete(sub.endpoint);
        undoable(() => pushSubscriptions.set(sub.endpoint, before));
      }
      put(pushSubscriptions, sub.endpoint, copyJson(sub));
      const own = [...pushSubscriptions.values()].filter((s) => s.identity === sub.identity);
      const dropped = keep === undefined ? [] : own.slice(0, Math.max(0, own.length - keep));
      for (const old of dropped) {
        pushSubscriptions.delete(old.endpoint);
        undoable(() => pushSubscriptions.set(old.endpoint, old));
      }
      return { stored: true, dropped: dropped.map((s) => s.endpoint) };
    },
    deletePushSubscription(endpoint, identity) {
      open();
      const found = pushSubscriptions.get(endpoint);
      if (!found || (identity !== undefined && found.identity !== identity)) return false;
      pushSubscriptions.delete(endpoint);
      undoable(() => pushSubscriptions.set(endpoint, found));
      return true;
    },
    listPushSubscriptions(identity) {
      open();
      return [...pushSubscriptions.values()].filter((s) => identity === undefined || s.identity === identity).map(copyJson);
    },
  };
}
