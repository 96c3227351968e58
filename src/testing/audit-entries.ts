import type { TestClient } from './ws-client.ts';

export type ReadEntry = { index: number; event: string; identity?: string; questionId?: string; status?: string; detail?: Record<string, unknown> };

/** L1: every entry of the audit log, read as `askdock audit export --unsigned` reads them (operator.admin). */
export async function auditEntries(admin: TestClient): Promise<ReadEntry[]> {
  let text = '';
  let page = await admin.call('audit.export', { unsigned: true });
  for (;;) {
    if (page.file === 'entries.jsonl') text += page.data;
    if (!page.next) break;
    page = await admin.call('audit.export', { exportId: page.exportId, ...page.next });
  }
  return text.trim() === '' ? [] : text.trim().split('\n').map((l) => JSON.parse(l) as ReadEntry);
}
