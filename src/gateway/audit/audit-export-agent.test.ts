/** L5: `audit export --agent` over a log that spans the change of an entry's agentId to the asking identity. */
import { afterEach, expect, it } from 'vitest';
import { verifyExport } from '../../audit/index.ts';
import { exportFiles, publicKeys } from '../../testing/audit-gateway.ts';
import { gatewayOnOlderLog } from '../../testing/older-audit-entries.ts';

let g: Awaited<ReturnType<typeof gatewayOnOlderLog>> | undefined;
afterEach(async () => {
  await g?.close();
  g = undefined;
});

const idsOf = (files: Map<string, string>) => files.get('entries.jsonl')!.trim().split('\n').filter(Boolean).map((l) => (JSON.parse(l) as { event: string; questionId?: string }));

it('[L1][L5][L6] --agent picks the entries of every question that identity asked, older ones by their asked entry, and says how many it could not tell', async () => {
  g = await gatewayOnOlderLog();
  const { t } = g;
  const admin = await t.connect('admin');
  const agent = await t.connect('agent');
  const { session } = await admin.call('sessions.create', { title: 'Work' });
  const lunch = { id: 'lunch', header: 'Lunch', question: 'What for lunch?', options: [{ label: 'Pizza' }, { label: 'Sushi' }] };
  const asked = await agent.call('question.request', { sessionKey: session.key, mode: 'async', questions: [lunch] });
  await admin.call('question.resolve', { id: asked.id, answers: { lunch: ['Sushi'] } });

  const files = await exportFiles(admin, { agentId: 'agent' });
  expect(idsOf(files).map((e) => [e.event, e.questionId])).toEqual([
    ['question.asked', 'old-approval'],
    ['policy.allowed', 'old-approval'],
    ['question.asked', 'old-plain'],
    ['question.answered', 'old-plain'],
    ['question.asked', asked.id],
    ['question.answered', asked.id],
  ]);
  const manifest = JSON.parse(files.get('manifest.json')!) as { manifest: { filter: Record<string, unknown>; entries: { contiguous: boolean } } };
  expect(manifest.manifest.filter).toEqual({ agentId: 'agent', agentUnknown: 1 });
  expect(manifest.manifest.entries.contiguous).toBe(false);
  expect(verifyExport(files, await publicKeys(t))).toMatchObject({ exit: 0 });
  expect((await admin.call('audit.export', { agentId: 'agent' })).agentUnknown).toBe(1);

  // The kind is not an agent: the older approval is not picked by it; the entry nothing tells the asker of is, by what it carries.
  const byKind = await exportFiles(admin, { agentId: 'claude-code' });
  expect(idsOf(byKind).map((e) => e.questionId)).toEqual(['unknown']);
  expect(idsOf(await exportFiles(admin, { agentId: 'agent2' })).map((e) => e.questionId)).toEqual(['other', 'other']);
  // Without --agent nothing is counted.
  const whole = JSON.parse((await exportFiles(admin)).get('manifest.json')!) as { manifest: { filter: Record<string, unknown> } };
  expect(whole.manifest.filter).toEqual({});
});
