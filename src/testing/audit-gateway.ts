import { parseVerifierKey, type ExportFiles } from '../audit/index.ts';
import type { TestGateway } from './gateway-harness.ts';
import type { TestClient } from './ws-client.ts';

/** What `askdock audit export` does: every page of audit.export, assembled into the files. */
export async function exportFiles(admin: TestClient, params: Record<string, unknown> = {}): Promise<ExportFiles> {
  const files: ExportFiles = new Map();
  let page = await admin.call('audit.export', params);
  for (;;) {
    files.set(page.file, (files.get(page.file) ?? '') + page.data);
    if (!page.next) break;
    page = await admin.call('audit.export', { exportId: page.exportId, ...page.next });
  }
  return files;
}

/** The verifier keys the gateway publishes (L3), as `--key` takes them. */
export async function verifierKeys(gw: TestGateway): Promise<string[]> {
  const res = await fetch(`${gw.gw.url}/.well-known/askdock/audit-keys`);
  return ((await res.json()) as { keys: { verifierKey: string }[] }).keys.map((k) => k.verifierKey);
}

/** The same keys, parsed for the verifier. */
export async function publicKeys(gw: TestGateway) {
  return (await verifierKeys(gw)).map(parseVerifierKey);
}

/** An approval asked by the agent (clientId `agent-client`) and allowed by an admin: both connections, its id and what the wait returned. */
export async function answeredApproval(gw: TestGateway) {
  const admin = await gw.connect('admin');
  const agent = await gw.connect('agent', { clientId: 'agent-client' });
  const { session } = await admin.call('sessions.create', { title: 'Work' });
  const res = await agent.call('question.request', { sessionKey: session.key, approval: { tool: 'Bash', input: { command: 'git push origin main' } } });
  await admin.waitEvent('question.requested', (p) => p.question.id === res.id);
  await admin.call('question.resolve', { id: res.id, answers: { approval: ['Allow'] } });
  return { admin, agent, id: res.id, waited: await agent.call('question.waitAnswer', { id: res.id }) };
}
