import type { MigrationStep } from '../migration-step.ts';
import { auditAcknowledgementSerial, auditCheckpointsNeverReused, auditCheckpointsSerial, auditLog } from './audit.ts';
import { coreTables, pendingQuestionsIndex, questionAskedBy, runStreamingMessage, sessionAgentBinding } from './core.ts';
import { policyGrants, routeDueIndex } from './policy.ts';
import { pushKeysAndSubscriptions, pushTokenHash } from './push.ts';
import { questionRowsByStore, searchIndexes, searchScopeWords } from './search.ts';
import { runLineageAndSecrets, secretOwner } from './secrets.ts';

/**
 * SQLite's schema steps in the order they are applied; `PRAGMA user_version` holds how many ran, so a new step is
 * appended here, never inserted. Tables with an `n INTEGER PRIMARY KEY` use it as a stable insertion order (a plain
 * rowid may change on VACUUM).
 */
export const SQLITE_STEPS: readonly MigrationStep[] = [
  coreTables,
  pendingQuestionsIndex,
  sessionAgentBinding,
  runLineageAndSecrets,
  questionAskedBy,
  runStreamingMessage,
  searchIndexes,
  pushKeysAndSubscriptions,
  secretOwner,
  pushTokenHash,
  searchScopeWords,
  policyGrants,
  auditLog,
  routeDueIndex,
  questionRowsByStore,
  auditCheckpointsSerial,
  auditAcknowledgementSerial,
  auditCheckpointsNeverReused,
];
