#!/usr/bin/env node
// node bench/profiles/categories.mjs FILE.cpuprofile: a profile's time by category (socket writes, SQLite, ws framing, zod, ...).
import { readFileSync } from 'node:fs';
const p = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const byId = new Map(p.nodes.map((n) => [n.id, n]));
const parent = new Map(); for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const cats = [
  ['socket writes (writev)', (f) => f.functionName === 'writev' || f.functionName === 'writevGeneric' || f.functionName === 'writeGeneric' || f.functionName === 'writeBuffer'],
  ['sqlite commit', (f) => f.functionName === 'commitGroup'],
  ['sqlite statements', (f) => /store\/(sqlite|rows|shape)\.ts/.test(f.url)],
  ['zod parse', (f) => /zod/.test(f.url)],
  ['JSON.stringify / parse', (f) => f.functionName === 'stringify' || f.functionName === 'parse' && !f.url],
  ['ws framing (send, receiver)', (f) => /node_modules\/ws\//.test(f.url)],
  ['node streams and sockets', (f) => /^node:(internal\/streams|internal\/stream_base|net)/.test(f.url)],
  ['gateway code', (f) => /src\/gateway\//.test(f.url)],
  ['garbage collector', (f) => f.functionName === '(garbage collector)'],
  ['idle', (f) => f.functionName === '(idle)'],
  ['the bench itself (profiler)', (f) => /bench\/gateway\.ts|bench\/lib\/profile-child\.mjs/.test(f.url)],
  ['module loading (startup)', (f) => /loader|hooks|realm|lexer|esm/.test(f.url) || f.functionName === 'compileSourceTextModule'],
];
const dt = new Map(); p.samples.forEach((id, i) => dt.set(id, (dt.get(id) ?? 0) + (p.timeDeltas[i] ?? 0)));
const totals = new Map(); let all = 0;
for (const [id, t] of dt) {
  all += t;
  let cat = 'other';
  // The frame nearest the leaf that belongs to any category decides (so gateway code called back from the ws receiver
  // is gateway code, and SQLite called from it is SQLite); within a frame, the list order breaks ties.
  const chain = []; for (let n = id; n !== undefined; n = parent.get(n)) chain.push(byId.get(n).callFrame);
  outer: for (const f of chain) for (const [name, test] of cats) if (test(f)) { cat = name; break outer; }
  totals.set(cat, (totals.get(cat) ?? 0) + t);
}
const outside = ['idle', 'module loading (startup)', 'the bench itself (profiler)'];
const busy = all - outside.reduce((sum, k) => sum + (totals.get(k) ?? 0), 0);
for (const [k, v] of [...totals].sort((a, b) => b[1] - a[1])) console.log((v / 1000).toFixed(0).padStart(7), 'ms', k.padEnd(30), outside.includes(k) ? '' : `${((v / busy) * 100).toFixed(1)} % of busy`);
