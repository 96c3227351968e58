import { runColumns, toRun, type RunDbRow } from '../rows.ts';
import { missingRow } from '../shape.ts';
import type { Store } from '../types.ts';
import { rowsOf, type PgQueries } from './queries.ts';

const RUN_COLUMNS = `run_id, session_key, agent_id, recovery, started_at_ms, ended_at_ms, stop_reason, phase, trigger_message_id,
  parent_run_id, superseded_at_ms, streaming_message_id`;

/** C4/Q7/Q10 on PostgreSQL: runs, each read in a transaction locked after its session (queries.ts). */
export function runMethods(db: PgQueries): Pick<Store, 'insertRun' | 'getRun' | 'updateRun' | 'activeRuns'> {
  const { q, insert, sessionsFirst } = db;
  return {
    async insertRun(run) {
      await insert(
        `INSERT INTO runs (${RUN_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
        Object.values(runColumns(run)),
      );
    },
    async getRun(runId) {
      const r = rowsOf<RunDbRow>(await q(sessionsFirst('runs', RUN_COLUMNS, '$col.run_id = $1'), [runId]))[0];
      return r ? toRun(r) : undefined;
    },
    async updateRun(run) {
      const r = await q(
        `UPDATE runs SET session_key = $2, agent_id = $3, recovery = $4, started_at_ms = $5, ended_at_ms = $6, stop_reason = $7,
         phase = $8, trigger_message_id = $9, parent_run_id = $10, superseded_at_ms = $11,
         streaming_message_id = $12 WHERE run_id = $1`,
        Object.values(runColumns(run)),
      );
      if (r.rowCount === 0) throw missingRow('run', run.runId);
    },
    async activeRuns(sessionKey?: string | null) {
      const rows =
        sessionKey === undefined
          ? (await q(`SELECT ${RUN_COLUMNS} FROM runs WHERE ended_at_ms IS NULL ORDER BY started_at_ms, n`))
          : await q(`SELECT ${RUN_COLUMNS} FROM runs WHERE ended_at_ms IS NULL AND session_key IS NOT DISTINCT FROM $1 ORDER BY started_at_ms, n`, [
              sessionKey,
            ]);
      return rowsOf<RunDbRow>(rows).map(toRun);
    },
  };
}
