import type { MigrationStep } from '../../migration-step.ts';
import { auditAcknowledgementSerial, auditCheckpointsSerial, auditLog } from './audit.ts';
import { clusterDutiesAndPresence, flushRows } from './cluster.ts';
import { coreTables, eventMessageId, questionAskedBy, runStreamingMessage, sessionAgentBinding } from './core.ts';
import { policyGrants, routeDueIndex } from './policy.ts';
import { pushKeysAndSubscriptions, pushTokenHash } from './push.ts';
import { questionSearchColumn, searchIndexes, searchScopeWords } from './search.ts';
import { runLineageAndSecrets, secretOwner } from './secrets.ts';

/**
 * PostgreSQL's schema steps in the order they are applied; `askdock_schema.version` holds how many ran, so a new step is
 * appended here, never inserted. JSON is kept as text so a record reads back exactly as written (jsonb would reorder
 * keys and fold duplicates).
 */
export const POSTGRES_STEPS: readonly MigrationStep[] = [
  coreTables,
  clusterDutiesAndPresence,
  runLineageAndSecrets,
  sessionAgentBinding,
  questionAskedBy,
  runStreamingMessage,
  searchIndexes,
  pushKeysAndSubscriptions,
  eventMessageId,
  flushRows,
  secretOwner,
  pushTokenHash,
  searchScopeWords,
  policyGrants,
  auditLog,
  routeDueIndex,
  questionSearchColumn,
  auditCheckpointsSerial,
  auditAcknowledgementSerial,
];
