import type { NewAuditEntry } from '../gateway/store/audit-rows.ts';
import { createMemoryStore } from '../gateway/store/memory.ts';
import { startTestGateway, type TestGateway } from './gateway-harness.ts';

/**
 * Entries as the gateway wrote them before: an approval's agentId was the kind it named itself, a plain question's
 * entries had none; the asking identity was the asked entry's `identity` only. One question's asked entry is not in the log.
 */
export const olderEntries: NewAuditEntry[] = [
  { atMs: 1_000, event: 'question.asked', identity: 'agent', questionId: 'old-approval', agentId: 'claude-code', kind: 'approval' },
  { atMs: 1_001, event: 'policy.allowed', identity: 'policy', questionId: 'old-approval', agentId: 'claude-code', kind: 'approval', status: 'allowed', decidedBy: 'policy' },
  { atMs: 1_002, event: 'question.asked', identity: 'agent', questionId: 'old-plain', kind: 'choice' },
  { atMs: 1_003, event: 'question.answered', identity: 'admin', surface: 'cli', questionId: 'old-plain', kind: 'choice', status: 'answered', decidedBy: 'person' },
  { atMs: 1_004, event: 'question.asked', identity: 'agent2', questionId: 'other', kind: 'choice' },
  { atMs: 1_005, event: 'question.answered', identity: 'admin', surface: 'cli', questionId: 'other', kind: 'choice', status: 'answered', decidedBy: 'person' },
  // Asked before the log began: nothing in it says who asked.
  { atMs: 1_006, event: 'question.expired', questionId: 'unknown', agentId: 'claude-code', kind: 'approval', status: 'expired', decidedBy: 'timeout' },
];

/** A signed test gateway on a memory store whose log starts with `olderEntries`; `close` ends both. */
export async function gatewayOnOlderLog(): Promise<{ t: TestGateway; close: () => Promise<void> }> {
  const store = createMemoryStore();
  for (const e of olderEntries) await store.appendAudit(e);
  const t = await startTestGateway({ auditSigning: true, store });
  return { t, close: async () => (await t.close(), await store.close()) };
}
