import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { MigrationStep } from './migration-step.ts';
import { POSTGRES_STEPS } from './postgres/migrations/steps.ts';
import { SQLITE_STEPS } from './sqlite-migrations/steps.ts';

/**
 * Every released step as [id, first 16 hex digits of the SHA-256 of its SQL], in the order databases applied them. A
 * database counts the steps it ran, so a step moved, dropped or edited would leave an existing database with a schema
 * this list no longer describes. A new step is appended here and at the end of its engine's steps.ts.
 */
const POSTGRES_RELEASED: ReadonlyArray<readonly [string, string]> = [
  ['core-tables', '455d9892418cbc09'],
  ['cluster-duties-presence', '47fb76374ef41cfb'],
  ['runs-lineage-secrets', '1a08560be09ba5c6'],
  ['sessions-agent-binding', 'f7d32ec2d7491456'],
  ['questions-asked-by', 'af7bb31a08424728'],
  ['runs-streaming-message', 'b8c93b52a348d5f3'],
  ['search-indexes', '984e3f5241d7be54'],
  ['push-keys-subscriptions', 'af16b3e83a185a82'],
  ['events-message-id', '85999d0a41e4ceb2'],
  ['cluster-flush', '5b495e196d255662'],
  ['secrets-owner', 'd848793bff7e5198'],
  ['push-token-hash', '44cb3186e0c2e6a1'],
  ['search-scope-words', 'c5893e0f621257ba'],
  ['policy-grants', '69ec50b42df69073'],
  ['audit-log', '48fab29e7f702727'],
  ['routing-due-index', 'eb400b35d9b7d32e'],
  ['search-question-column', '948f675c106c8e80'],
  ['audit-checkpoints-serial', 'c0cadccd28d722ef'],
  ['audit-acknowledgement-serial', '7c0dbc20e174cbdd'],
];
const SQLITE_RELEASED: ReadonlyArray<readonly [string, string]> = [
  ['core-tables', '72cfda319bada9a6'],
  ['questions-pending-index', 'adea6fae1306f8ca'],
  ['sessions-agent-binding', '171204871946e887'],
  ['runs-lineage-secrets', 'a1d14019839bde03'],
  ['questions-asked-by', '46bbd8584520d434'],
  ['runs-streaming-message', 'e35233fb1cee67e6'],
  ['search-indexes', '2f197cf80211a207'],
  ['push-keys-subscriptions', 'b9884f2f7fe590ec'],
  ['secrets-owner', '7d744eb5de7829e8'],
  ['push-token-hash', '8e921ebac8a0ea6f'],
  ['search-scope-words', '76fb2a153c30bebd'],
  ['policy-grants', '8c15a402b97ed0e9'],
  ['audit-log', '247f38ca1a3b0877'],
  ['routing-due-index', '6cad7754f9a2005d'],
  ['search-question-rows', '75d2503ea096541f'],
  ['audit-checkpoints-serial', 'c6540a3889c3ef98'],
  ['audit-acknowledgement-serial', 'b7e21c67dda6c07a'],
  ['audit-checkpoints-never-reused', 'e94bf095b13ff63f'],
];

const fingerprint = (steps: readonly MigrationStep[]) =>
  steps.map((step) => [step.id, createHash('sha256').update(step.sql).digest('hex').slice(0, 16)] as const);

describe.each([
  ['PostgreSQL', POSTGRES_STEPS, POSTGRES_RELEASED],
  ['SQLite', SQLITE_STEPS, SQLITE_RELEASED],
] as const)('%s schema steps', (_engine, steps, released) => {
  it('[D1] each step has an id of its own', () => {
    const ids = steps.map((step) => step.id);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
  });

  it('[D1][R3] the released steps keep their order and their SQL byte for byte, so an existing database migrates as before', () => {
    expect(fingerprint(steps).slice(0, released.length)).toEqual(released);
  });
});
