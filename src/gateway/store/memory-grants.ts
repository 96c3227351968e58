import { copyJson } from './shape.ts';
import type { UndoJournal } from './memory-journal.ts';
import type { GrantStoreMethods, StoredGrant } from './types.ts';

/** G5 in memory: the grants "Always allow…" answers made; a revocation is undone with its transaction. */
export function memoryGrantMethods(journal: Pick<UndoJournal, 'open' | 'put'>): GrantStoreMethods {
  const { open, put } = journal;
  const grants = new Map<string, StoredGrant>();
  return {
    insertGrant(g) {
      open();
      if (grants.has(g.id)) throw new Error(`grant "${g.id}" already exists`);
      put(grants, g.id, copyJson(g));
    },
    getGrant(id) {
      open();
      const found = grants.get(id);
      return found ? copyJson(found) : undefined;
    },
    listGrants(liveAtMs) {
      open();
      const live = (g: StoredGrant) => liveAtMs === undefined || (g.revokedAtMs === undefined && g.expiresAt > liveAtMs);
      return [...grants.values()].filter(live).sort((a, b) => a.createdAtMs - b.createdAtMs || (a.id < b.id ? -1 : 1)).map(copyJson);
    },
    revokeGrant(id, atMs) {
      open();
      const found = grants.get(id);
      if (!found || found.revokedAtMs !== undefined) return false;
      put(grants, id, { ...found, revokedAtMs: atMs });
      return true;
    },
  };
}
