import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { verifyReceipt } from '../../audit/index.ts';
import { splitNotes } from '../../audit/export-format.ts';
import { failure, startTestGateway, tokenOf, type TestGateway } from '../../testing/gateway-harness.ts';
import { answeredApproval, publicKeys, verifierKeys } from '../../testing/audit-gateway.ts';
import { runAskdock } from '../../testing/hook-process.ts';
import { policyConfig } from '../../testing/policy-config.ts';

let t: TestGateway | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

/** Stops the gateway, keeping its folder, and changes its SQLite file as someone with the file would; the folder. */
async function stopAndEdit(gw: TestGateway, sql: string): Promise<string> {
  await gw.close({ keepDir: true });
  const raw = new Database(gw.dbPath);
  raw.prepare(sql).run();
  raw.close();
  return gw.dir;
}

/**
 * Two approvals after a checkpoint of size 3 and one of size 7, the SQLite file changed by `sql` while stopped, the
 * gateway started again (its self-check fails): an admin's connection to it.
 */
async function changedLog(sql: string) {
  t = await startTestGateway({ config: policyConfig, auditSigning: true });
  const first = await answeredApproval(t);
  expect((await first.admin.call('audit.checkpoint', { sign: true })).treeSize).toBe(3);
  await answeredApproval(t);
  await answeredApproval(t);
  expect((await first.admin.call('audit.checkpoint', { sign: true })).treeSize).toBe(7);
  const dir = await stopAndEdit(t, sql);
  t = await startTestGateway({ config: policyConfig, dir, auditSigning: true });
  return t.connect('admin');
}

/** `askdock audit export` by an admin, then `askdock audit verify` of the folder with the gateway's key, as an auditor runs them. */
async function exportAndVerify(gw: TestGateway, flags: string[] = []) {
  const out = join(mkdtempSync(join(tmpdir(), 'askdock-export-')), 'export');
  const exported = await runAskdock(['audit', 'export', '--out', out, ...flags], { cwd: gw.dir, env: { ASKDOCK_URL: gw.gw.wsUrl, ASKDOCK_TOKEN: tokenOf('admin') } });
  const [key] = await verifierKeys(gw);
  const verified = await runAskdock(['audit', 'verify', out, '--key', key], { cwd: tmpdir() });
  const checkpoints = exported.code === 0 ? splitNotes(readFileSync(join(out, 'checkpoints.txt'), 'utf8')).map((n) => n.note) : [];
  return { exported, verified, checkpoints, out };
}

/** The log changed by `sql`, nobody acknowledging (L7): export, then verify. */
async function exportAfter(sql: string) {
  const admin = await changedLog(sql);
  expect((await admin.call('audit.checkpoint', {})).integrity?.ok).toBe(false);
  return exportAndVerify(t!);
}

describe('the audit log changed behind the gateway, found and acknowledged (L7)', () => {
  it('[L7] an audit row edited in the SQLite file is found after restart, shown to admins, and nothing is signed over it until acknowledged', async () => {
    t = await startTestGateway({ config: policyConfig, auditSigning: true });
    const first = await answeredApproval(t);
    // The policy loaded at start, the question asked, its answer.
    expect((await first.admin.call('audit.checkpoint', { sign: true })).treeSize).toBe(3);
    const dir = await stopAndEdit(t, `UPDATE audit_entries SET line = replace(line, '"agent"', '"someone"') WHERE idx = 1`);

    t = await startTestGateway({ config: policyConfig, dir, auditSigning: true });
    expect(t.logs.join('\n')).toMatch(/does not match its signed checkpoints/);
    const admin = await t.connect('admin');
    const held = await admin.call('audit.checkpoint', { sign: true });
    expect(held.integrity).toMatchObject({ ok: false, detail: expect.stringMatching(/checkpoint of size 3/) });
    expect(held.checkpoint!.split('\n')[1]).toBe('3');

    const ack = await admin.call('audit.acknowledge', { note: 'row 0 restored from backup' });
    // After the restart's policy load (entry 3).
    expect(ack).toEqual({ acknowledged: true, entryIndex: 4 });
    const integrity = await admin.waitEvent('audit.integrity', (p) => p.ok);
    expect(integrity).toMatchObject({ ok: true });
    const after = await admin.call('audit.checkpoint', {});
    expect(after).toMatchObject({ treeSize: 5, integrity: { ok: true } });
    expect(after.checkpoint!.split('\n')[1]).toBe('5');
  });

  it('[L7] an audit row deleted in the SQLite file: audit.checkpoint still answers admins the failed check (the Control UI\'s banner reads it there)', async () => {
    t = await startTestGateway({ config: policyConfig, auditSigning: true });
    const first = await answeredApproval(t);
    await answeredApproval(t).then((second) => second.admin.call('audit.checkpoint', { sign: true }));
    // The policy's load (entry 0), then each approval's asking and answer.
    expect((await first.admin.call('audit.checkpoint', {})).treeSize).toBe(5);
    const dir = await stopAndEdit(t, 'DELETE FROM audit_entries WHERE idx = 1');

    t = await startTestGateway({ config: policyConfig, dir, auditSigning: true });
    const admin = await t.connect('admin');
    const state = await admin.call('audit.checkpoint', {});
    expect(state.integrity).toEqual({ ok: false, detail: 'entry 1 is missing from the log' });
    // The rows stored: four of the five left, and the restart's policy load.
    expect(state.treeSize).toBe(5);
    expect(state.checkpoint!.split('\n')[1]).toBe('5');
  });

  it('[L7] the last entries deleted and acknowledged: checkpoints are signed again over the log as it is, not held by one signed before', async () => {
    t = await startTestGateway({ config: policyConfig, auditSigning: true });
    const first = await answeredApproval(t);
    await answeredApproval(t);
    expect((await first.admin.call('audit.checkpoint', { sign: true })).treeSize).toBe(5);
    const dir = await stopAndEdit(t, 'DELETE FROM audit_entries WHERE idx >= 3');

    t = await startTestGateway({ config: policyConfig, dir, auditSigning: true });
    const admin = await t.connect('admin');
    // Three rows left and the restart's policy load: fewer than the checkpoint of size 5 covers.
    expect((await admin.call('audit.checkpoint', {})).integrity).toMatchObject({ ok: false, detail: expect.stringMatching(/checkpoint of size 5/) });
    // The acknowledgement is entry 4: the log is back at size 5, with other entries than the checkpoint signed before.
    expect(await admin.call('audit.acknowledge', { note: 'the last rows were lost with a disk' })).toEqual({ acknowledged: true, entryIndex: 4 });
    await answeredApproval(t);
    const after = await admin.call('audit.checkpoint', { sign: true });
    expect(after).toMatchObject({ treeSize: 7, integrity: { ok: true } });
    expect(after.checkpoint!.split('\n')[1]).toBe('7');
  });

  it('[L5][L6][L7] an acknowledgement that left the log smaller than a checkpoint signed before: the export is proved against the latest checkpoint its entries cover, and `askdock audit verify` passes', async () => {
    const admin = await changedLog('DELETE FROM audit_entries WHERE idx >= 3');
    // Three rows left, the restart's policy load (entry 3) and the acknowledgement (entry 4): a log of 5, which the
    // acknowledgement's checkpoint covers, while the checkpoint of size 7 signed before lies past its end.
    expect(await admin.call('audit.acknowledge', { note: 'the last rows were lost with a disk' })).toEqual({ acknowledged: true, entryIndex: 4 });
    // An answer recorded at the index of one lost with the rows (entry 6).
    expect((await answeredApproval(t!)).waited.receipt).toBeDefined();
    const { exported, verified } = await exportAndVerify(t!);
    expect(exported.stderr).toBe('');
    expect(exported.stdout).toMatch(/^exported 7 entries into /);
    expect(verified.stdout + verified.stderr).toMatch(/^valid: entries 0\.\.6 \(7\) of a log of 7, .*\nanswers: 2 match/);
    expect(verified.code).toBe(0);
  });

  it('[L5][L6][L7] the last rows deleted and nobody has acknowledged: the export carries the checkpoints as signed, and `askdock audit verify` says incomplete, naming the first entry missing below the last checkpoint', async () => {
    const out = await exportAfter(`DELETE FROM audit_entries WHERE idx >= 3`);
    // Entries 0..2 as signed (the start's self-check found 3), then the restart's policy load took index 3: the checkpoint of size 7 lies past the log's end.
    expect(out.exported.stdout).toMatch(/^exported 4 entries into /);
    expect(out.exported.stderr).toMatch(/the audit log failed its self-check \(the checkpoint of size 7 covers more entries than the log holds \(3\)\)/);
    expect(out.verified.stdout + out.verified.stderr).toBe('incomplete: entries.jsonl, line 5, entry 4: entry 4 is missing: the checkpoint of size 7 covers entries 0..6, the export ends at entry 3\n');
    expect(out.verified.code).toBe(2);
    // Nothing was signed over the failure: the export's last checkpoint is the one of size 7 signed before.
    expect(out.checkpoints.map((n) => n.split('\n')[1])).toEqual(['3', '7']);
  });

  it('[L5][L6][L7] a row edited and nobody has acknowledged: `askdock audit verify` of the export says tampered, naming the first entry the checkpoint over it no longer proves', async () => {
    const out = await exportAfter(`UPDATE audit_entries SET line = replace(line, '"agent"', '"someone"') WHERE idx = 5`);
    expect(out.exported.stdout).toMatch(/^exported 7 entries into /);
    // The entries from the checkpoint of size 3 up to 6 are proved against the one of size 7, which entry 5 as stored breaks.
    expect(out.verified.stdout).toBe('tampered: entries.jsonl, line 4, entry 3: entry 3 is not in the tree the checkpoint of size 7 signs\n');
    expect(out.verified.code).toBe(1);
  });

  it('[L5][L6][L7] a row in the middle deleted and nobody has acknowledged: the export does not fail, and verify says incomplete, naming the missing entry', async () => {
    const out = await exportAfter(`DELETE FROM audit_entries WHERE idx = 1`);
    expect(out.exported.code).toBe(0);
    expect(out.verified.stdout).toBe('incomplete: entries.jsonl, line 2, entry 1: entry 1 is missing (the next line holds entry 2)\n');
    expect(out.verified.code).toBe(2);
  });

  it('[A5][L7][L9] without operator.admin the integrity state is not read, a failed check is not acknowledged, and no audit.integrity event arrives', async () => {
    const admin = await changedLog(`UPDATE audit_entries SET line = replace(line, '"agent"', '"someone"') WHERE idx = 5`);
    const others = await Promise.all((['questions', 'reader', 'writer', 'guest', 'agent'] as const).map((who) => t!.connect(who, { clientId: `${who}-client` })));
    for (const other of others) {
      for (const [method, params] of [['audit.checkpoint', { sign: true }], ['audit.acknowledge', { note: 'mine' }], ['audit.export', {}]] as const)
        expect(await failure(other.call(method, params))).toMatchObject({ code: 'FORBIDDEN', message: expect.stringContaining('operator.admin'), details: { needed: ['operator.admin'] } });
      // L9: the checkpoint and a proof are anyone's (a receipt's holder checks it), the failed check is not in them.
      expect(await other.call('audit.checkpoint', {})).not.toHaveProperty('integrity');
      expect((await other.call('audit.proof', { index: 0 })).index).toBe(0);
    }
    // Still waiting for an admin: the refused acknowledgements changed nothing.
    expect((await admin.call('audit.checkpoint', {})).integrity).toMatchObject({ ok: false });
    expect(await admin.call('audit.acknowledge', {})).toMatchObject({ acknowledged: true });
    await admin.waitEvent('audit.integrity', (p) => p.ok);
    // A round trip on each connection after the admin read the event: one sent to them too would be read by then.
    for (const other of others) await other.call('sessions.list', {}).catch(() => undefined);
    for (const other of others) expect(other.eventsNamed('audit.integrity')).toEqual([]);
  });

  it('[A4][L7][L9] a row deleted: others asking for a proof are told it cannot be proven now, not what the self-check found', async () => {
    const admin = await changedLog(`DELETE FROM audit_entries WHERE idx = 2`);
    for (const who of ['guest', 'agent'] as const) {
      const other = await t!.connect(who, { clientId: `${who}-client` });
      const refused = await failure(other.call('audit.proof', { index: 0 }));
      expect(refused).toMatchObject({ code: 'UNAVAILABLE', message: 'audit.proof: the audit log cannot be proven just now; an admin has been told' });
    }
    expect(await failure(admin.call('audit.proof', { index: 0 }))).toMatchObject({ message: expect.stringContaining('entry 2 is missing') });
  });

  it('[L5][L6][L7] a row in the middle deleted and acknowledged with `askdock audit acknowledge`: the lost entry is an `audit.lost` entry in its place, checkpoints and receipts are signed again, and the export verifies showing the loss', async () => {
    // Entry 2 is the first approval's answer: its kept answer is left behind with no entry recording it.
    const admin = await changedLog(`DELETE FROM audit_entries WHERE idx = 2`);
    expect((await admin.call('audit.checkpoint', {})).integrity).toEqual({ ok: false, detail: 'entry 2 is missing from the log' });
    const env = { ASKDOCK_URL: t!.gw.wsUrl, ASKDOCK_TOKEN: tokenOf('admin') };
    const acked = await runAskdock(['audit', 'acknowledge', '--note', 'row 2 lost'], { cwd: t!.dir, env });
    expect(acked.stdout).toBe('acknowledged (entry 8); the missing entries 2 are recorded as lost (audit.lost): checkpoints are signed again\n');
    expect(acked.code).toBe(0);
    expect((await admin.call('audit.checkpoint', {})).integrity).toEqual({ ok: true });

    const next = await answeredApproval(t!);
    expect(verifyReceipt(next.waited.receipt!, await publicKeys(t!))).toMatchObject({ ok: true, payload: { questionId: next.id } });
    const { exported, verified, checkpoints, out } = await exportAndVerify(t!, ['--format', 'csv']);
    expect(exported.stderr).toBe('');
    expect(verified.stdout + verified.stderr).toMatch(/^valid: entries 0\.\.10 \(11\) of a log of 11, .*\nanswers: 3 match/);
    expect(verified.code).toBe(0);
    expect(checkpoints.at(-1)!.split('\n')[1]).toBe('11');
    const entries = readFileSync(join(out, 'entries.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(entries[2]).toMatchObject({ index: 2, event: 'audit.lost', identity: 'admin' });
    expect(readFileSync(join(out, 'entries.csv'), 'utf8').split('\n')[3]).toMatch(/^2,[^,]+,audit\.lost,/);
    expect(entries[8]).toMatchObject({ event: 'audit.acknowledged', detail: { problem: 'entry 2 is missing from the log', lost: '2', lostCount: 1, note: 'row 2 lost' } });
    // The kept answer of the lost entry is not exported against its placeholder.
    const answers = readFileSync(join(out, 'answers.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l).entryIndex);
    expect(answers).toEqual([4, 6, 10]);
  });

  it('[L7] `askdock audit acknowledge` of 201 holes prints the first 100 and how many there were in all', async () => {
    // Rows at 8, 10, …, 408 written into the file after the 7 entries (0..6): each index 7, 9, …, 407 is missing.
    await changedLog(`WITH RECURSIVE s(i) AS (SELECT 8 UNION ALL SELECT i + 2 FROM s WHERE i < 408) INSERT INTO audit_entries (idx, line) SELECT i, 'x' FROM s`);
    const acked = await runAskdock(['audit', 'acknowledge'], { cwd: t!.dir, env: { ASKDOCK_URL: t!.gw.wsUrl, ASKDOCK_TOKEN: tokenOf('admin') } });
    const listed = Array.from({ length: 100 }, (_, i) => 7 + 2 * i).join(',');
    expect(acked.stdout).toBe(`acknowledged (entry 410); the missing entries ${listed} and more (201 entries in 201 runs) are recorded as lost (audit.lost): checkpoints are signed again\n`);
  });

});
