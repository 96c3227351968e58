/** The audit room of a gateway on SQLite or PostgreSQL, as the audit room's tests drive it (L2, L7). */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterEach } from 'vitest';
import { newSeed } from '../audit/ed25519.ts';
import { leafHash, MerkleTree, parseCheckpoint } from '../audit/index.ts';
import { signerFromSeed } from '../audit/note.ts';
import { freshSchema } from './postgres.ts';
import { FakeClock } from './fake-clock.ts';
import type { Identity } from '../gateway/auth.ts';
import type { Duties } from '../gateway/infra/duties.ts';
import { EventHub } from '../gateway/hub/hub.ts';
import { Turn } from '../gateway/hub/turn.ts';
import { memoryLogger } from '../gateway/infra/logger.ts';
import type { SessionAccess } from '../gateway/sessions/session-access.ts';
import { openPostgresStore } from '../gateway/store/postgres/store.ts';
import { openSqliteStore } from '../gateway/store/sqlite.ts';
import type { Store } from '../gateway/store/types.ts';
import { AuditRoom } from '../gateway/audit/audit-room.ts';

export const ORIGIN = 'askdock.local/audit-room';
export const keys = [{ ...signerFromSeed(ORIGIN, newSeed()), validFrom: '2026-12-01T00:00:00.000Z' }];
export const admin: Identity = { id: 'admin', role: 'operator', scopes: new Set(['operator.admin']) };
export const EDIT = `UPDATE audit_entries SET line = replace(line, '"agent"', '"someone"') WHERE idx = `;

/** A database as a gateway uses it, and a way to change its rows as someone with the database would. */
export type AuditDatabase = { store: Store; run(sql: string): Promise<void>; close(): Promise<void> };

export const databases: [string, () => Promise<AuditDatabase>][] = [
  [
    'SQLite',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'askdock-audit-room-'));
      const file = join(dir, 'askdock.db');
      const store = openSqliteStore(file);
      return {
        store,
        async run(sql) {
          const raw = new Database(file);
          raw.prepare(sql).run();
          raw.close();
        },
        async close() {
          await store.close();
          rmSync(dir, { recursive: true, force: true });
        },
      };
    },
  ],
  [
    'PostgreSQL',
    async () => {
      const schema = await freshSchema('auditroom');
      const store = await openPostgresStore(schema.url);
      return {
        store,
        async run(sql) {
          const raw = new pg.Client({ connectionString: schema.url });
          await raw.connect();
          await raw.query(sql);
          await raw.end();
        },
        async close() {
          await store.close();
          await schema.drop();
        },
      };
    },
  ],
];

export const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const f of cleanups.splice(0).reverse()) await f();
});

/**
 * The audit room of a gateway on the database, started (on `shared`'s hub when given: two rooms on one connection),
 * without the duties (D3) when `dutiesHeld` is false; `linesRead` counts the stored lines it read (rows of
 * `auditLines`); `edit` changes a line and `removeFrom` deletes the last ones, between the gateway's units.
 */
export async function gatewayOn(db: AuditDatabase, clock: FakeClock, shared?: EventHub, dutiesHeld = true) {
  const store = db.store;
  const { log, lines } = memoryLogger();
  let linesRead = 0;
  const counted = new Proxy(store, {
    get(target, name) {
      const value = Reflect.get(target, name);
      if (name === 'auditLines')
        return async (from: number, to: number) => {
          const rows = await target.auditLines(from, to);
          linesRead += rows.length;
          return rows;
        };
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  const hub = shared ?? new EventHub({ store, clock, view: (_viewer, _ev, frame) => frame(), checkPayloads: false, log, turn: new Turn(), onRollback: () => {} });
  if (!shared) await hub.start();
  const room = new AuditRoom({ store: counted, hub, access: {} as SessionAccess, clock, log, keys, origin: ORIGIN, duties: () => (dutiesHeld ? null : ({ held: false } as Duties)) });
  await room.start();
  cleanups.push(() => {
    room.stop();
    hub.stopListening();
  });
  /** Entries recorded as the gateway's units record them. */
  const append = (count: number) =>
    hub.commit(async () => {
      for (let i = 0; i < count; i++) await room.record({ atMs: clock.now(), event: 'question.asked', identity: 'agent', questionId: `q-${clock.now()}-${i}` });
    });
  return { room, hub, append, logs: lines, linesRead: () => linesRead, edit: (index: number) => hub.quiet(() => db.run(EDIT + index)),
    removeFrom: (index: number) => hub.quiet(() => db.run(`DELETE FROM audit_entries WHERE idx >= ${index}`)),
  };
}

export async function open(makeDatabase: () => Promise<AuditDatabase>) {
  const db = await makeDatabase();
  cleanups.push(() => db.close());
  return db;
}

/** A gateway on a fresh database with a checkpoint signed over `entries` entries by its duty. */
export async function signedGateway(makeDatabase: () => Promise<AuditDatabase>, entries: number, clock = new FakeClock()) {
  const db = await open(makeDatabase);
  const gw = await gatewayOn(db, clock);
  await gw.append(entries);
  await gw.room.duty();
  return { db, gw };
}

export const latestSize = async (store: Store) => (await store.latestAuditCheckpoint())?.size ?? 0;
export const storedLines = async (store: Store) => (await store.auditLines(0, await store.auditSize())).map((r) => r.line);
export const rootOf = (lines: string[]) => new MerkleTree(lines.map(leafHash)).root();
export const rootOfNote = (note: string) => parseCheckpoint(note.split('\n\n')[0] + '\n').root;
export const signedRoot = async (store: Store) => rootOfNote((await store.latestAuditCheckpoint())!.note);

