import { ratio } from './lib/stats.ts';
import { ms, times, type Row } from './lib/table.ts';
import type { ScaleFigures } from './scale.ts';

const n = (x: number) => x.toLocaleString('en-US');
const kb = (x: number) => `${x.toFixed(1)} KB`;
/**
 * Aims on growth from 1x to 10x: what must stay flat, and what may grow at most in proportion (with 20 % slack: keys
 * and ids get longer with the count, so even a response's size grows a little faster than its rows).
 */
const FLAT = 2;
const LINEAR = 12;

type Growth = { figure: string; at1: number; at10: number; show: (x: number) => string; size1: string; limit: number };

function growthRow(section: string, g: Growth): Row {
  const grows = ratio(g.at10, g.at1);
  const aim = g.limit === LINEAR ? `growth <= ${LINEAR}x (about linear)` : `growth < ${g.limit}x (flat)`;
  return { section, figure: g.figure, measured: g.show(g.at10), baseline: `1x (${g.size1}) ${g.show(g.at1)}`, ratio: times(grows), aim, met: Number.isFinite(grows) ? (g.limit === LINEAR ? grows <= g.limit : grows < g.limit) : false };
}

/** One row per figure: the 10x value beside the 1x value of the same run, their ratio being the growth. */
export function scaleRows(f: ScaleFigures): Row[] {
  const rows: Row[] = [];
  const [c1, c10] = f.connections;
  if (c1 && c10) {
    const s = `Scale: idle operators ${n(c1.connections)} -> ${n(c10.connections)}`;
    const size1 = n(c1.connections);
    rows.push(growthRow(s, { figure: 'gateway RSS per connection', at1: c1.rssPerConnectionKb, at10: c10.rssPerConnectionKb, show: kb, size1, limit: 1.5 }));
    rows.push(growthRow(s, { figure: 'question.requested -> the last operator has it', at1: c1.eventToLastMs, at10: c10.eventToLastMs, show: ms, size1, limit: LINEAR }));
  }
  const [s1, s10] = f.sessions;
  if (s1 && s10) {
    const s = `Scale: sessions x ${s1.messagesPerSession} messages ${n(s1.sessions)} -> ${n(s10.sessions)}`;
    const size1 = `${n(s1.sessions)} sessions`;
    rows.push(growthRow(s, { figure: 'chat.history, one page, median', at1: s1.historyPageMs, at10: s10.historyPageMs, show: ms, size1, limit: FLAT }));
    rows.push(growthRow(s, { figure: 'sessions.list, median', at1: s1.sessionsListMs, at10: s10.sessionsListMs, show: ms, size1, limit: LINEAR }));
    rows.push(growthRow(s, { figure: '  sessions.list response size', at1: s1.sessionsListKb, at10: s10.sessionsListKb, show: kb, size1, limit: LINEAR }));
  }
  const [q1, q10] = f.questions;
  if (q1 && q10) {
    const s = `Scale: retained questions ${n(q1.retained)} -> ${n(q10.retained)} (${q1.pending} pending)`;
    const size1 = `${n(q1.retained)} retained`;
    rows.push(growthRow(s, { figure: 'question.list (all), median', at1: q1.questionListMs, at10: q10.questionListMs, show: ms, size1, limit: LINEAR }));
    rows.push(growthRow(s, { figure: '  question.list response size', at1: q1.questionListKb, at10: q10.questionListKb, show: kb, size1, limit: LINEAR }));
    rows.push(growthRow(s, { figure: 'hello-ok size', at1: q1.helloKb, at10: q10.helloKb, show: kb, size1, limit: 1.5 }));
    rows.push(growthRow(s, { figure: 'connect -> hello-ok, median', at1: q1.helloMs, at10: q10.helloMs, show: ms, size1, limit: FLAT }));
  }
  return rows;
}
