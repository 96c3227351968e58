import type { HandlerTable } from './types.ts';

/** L3/L5/L7/L9: thin over the audit room. */
export const auditHandlers: Pick<HandlerTable, 'audit.checkpoint' | 'audit.proof' | 'audit.export' | 'audit.acknowledge'> = {
  'audit.checkpoint': (p, { core, conn }) => core.audit.checkpoint(conn.identity, p),
  'audit.proof': (p, { core, conn }) => core.audit.proof(conn.identity, p),
  'audit.export': (p, { core, conn }) => core.audit.exportPage(conn.identity, p),
  'audit.acknowledge': (p, { core, conn }) => core.audit.acknowledge(conn.identity, p),
};
