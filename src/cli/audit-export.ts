/**
 * `askdock audit export … --out DIR` (L5) and `askdock audit acknowledge` (L7): an operator.admin connection reads the
 * export's files a page at a time (audit.export) and writes them into DIR, new or empty; acknowledge lets the gateway
 * sign again after a failed self-check (itself an entry). Exit 0 done, 1 a gateway failure or a refusal, 2 bad usage.
 */
import { parseArgs } from 'node:util';
import { checkExportDirFree, writeExportDir } from '../audit/export-dir.ts';
import type { ExportFiles } from '../audit/export-format.ts';
import { terminalLine } from '../lib/terminal-text.ts';
import { EXIT, usageError } from './args.ts';
import { endpointFlags } from './endpoint.ts';
import { withGateway } from './policy-client.ts';

export const EXPORT_USAGE = [
  'usage: askdock audit export [--since T] [--until T] [--session KEY] [--agent A] --out DIR [--redact answers] [--format csv] [--unsigned]',
  '         [--url ws://127.0.0.1:7420] [--token T]   (an operator.admin token; T: an ISO time such as 2026-12-01T00:00:00Z, or ms since 1970)',
  '       askdock audit acknowledge [--note TEXT] [--url …] [--token T]   (after a failed self-check: sign checkpoints again)',
].join('\n');

function timeOf(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const ms = /^\d+$/.test(value) ? Number(value) : Date.parse(value);
  if (!Number.isFinite(ms) || ms < 0) throw new Error(`--${flag} ${value}: expected an ISO time (2026-12-01T00:00:00Z) or ms since 1970`);
  return ms;
}

export async function exportCommand(argv: string[]): Promise<number> {
  const command = 'audit export';
  let params: Record<string, unknown>;
  let out: string;
  let flags: { url?: string; token?: string };
  try {
    const { values, positionals } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: true,
      options: {
        since: { type: 'string' },
        until: { type: 'string' },
        session: { type: 'string' },
        agent: { type: 'string' },
        out: { type: 'string' },
        redact: { type: 'string' },
        format: { type: 'string' },
        unsigned: { type: 'boolean' },
        url: { type: 'string' },
        token: { type: 'string' },
      },
    });
    if (positionals.length) throw new Error(`unexpected argument "${positionals[0]}"`);
    if (!values.out) throw new Error('--out DIR is missing: the folder to write the export into (new or empty)');
    if (values.redact !== undefined && values.redact !== 'answers') throw new Error(`--redact ${values.redact}: only "answers" can be redacted`);
    if (values.format !== undefined && values.format !== 'csv') throw new Error(`--format ${values.format}: only "csv" is known`);
    out = values.out;
    // Before the gateway is asked: an export signs a checkpoint and reads the whole log, for nothing if it cannot be written.
    checkExportDirFree(out);
    const since = timeOf('since', values.since);
    const until = timeOf('until', values.until);
    params = {
      ...(since !== undefined ? { since } : {}),
      ...(until !== undefined ? { until } : {}),
      ...(values.session ? { sessionKey: values.session } : {}),
      ...(values.agent ? { agentId: values.agent } : {}),
      ...(values.redact ? { redact: 'answers' } : {}),
      ...(values.format ? { format: 'csv' } : {}),
      ...(values.unsigned ? { unsigned: true } : {}),
    };
    flags = endpointFlags(values);
  } catch (err) {
    return usageError(command, err, EXPORT_USAGE);
  }
  return withGateway(command, EXPORT_USAGE, flags, 'operator', async (agent) => {
    const files: ExportFiles = new Map();
    let page = await agent.client.request('audit.export', params);
    for (;;) {
      files.set(page.file, (files.get(page.file) ?? '') + page.data);
      if (!page.next) break;
      page = await agent.client.request('audit.export', { exportId: page.exportId, file: page.next.file, offset: page.next.offset });
    }
    writeExportDir(out, files);
    const entries = (files.get('entries.jsonl') ?? '').split('\n').filter(Boolean).length;
    process.stdout.write(`exported ${entries} entries into ${terminalLine(out)}: ${[...files.keys()].join(', ')}\n`);
    if (page.agentUnknown !== undefined)
      process.stderr.write(
        `askdock audit export: --agent could not tell whose ${page.agentUnknown} entries were (their question's asked entry is not in the log); they were picked by the agent they name, which entries written before the agent was the asking identity hold as an approval's kind or not at all (a signed export's manifest counts them: filter.agentUnknown)\n`,
      );
    if (page.failedCheck !== undefined)
      process.stderr.write(
        `askdock audit export: the audit log failed its self-check (${terminalLine(page.failedCheck)}) and no admin has acknowledged it: no fresh checkpoint was signed, and the export holds the entries as stored against the checkpoints as signed; askdock audit verify names where they part\n`,
      );
    return EXIT.answered;
  });
}

export async function acknowledgeCommand(argv: string[]): Promise<number> {
  const command = 'audit acknowledge';
  let note: string | undefined;
  let flags: { url?: string; token?: string };
  try {
    const { values } = parseArgs({ args: argv, strict: true, options: { note: { type: 'string' }, url: { type: 'string' }, token: { type: 'string' } } });
    note = values.note;
    flags = endpointFlags(values);
  } catch (err) {
    return usageError(command, err, EXPORT_USAGE);
  }
  return withGateway(command, EXPORT_USAGE, flags, 'operator', async (agent) => {
    const res = await agent.client.request('audit.acknowledge', note ? { note } : {});
    const lost = res.lost ? `; the missing entries ${res.lost}${moreLost(res)} are recorded as lost (audit.lost)` : '';
    process.stdout.write(res.acknowledged ? `acknowledged (entry ${res.entryIndex})${lost}: checkpoints are signed again\n` : 'nothing to acknowledge: the audit log passed its self-check\n');
    return EXIT.answered;
  });
}

/** L7: what an acknowledgement's answer does not list of the lost indexes (it lists the first runs only). */
function moreLost(res: { lostCount?: number; lostRuns?: number }): string {
  return res.lostRuns === undefined ? '' : ` and more (${res.lostCount} entries in ${res.lostRuns} runs)`;
}
