#!/usr/bin/env node
// node bench/profiles/categories.mjs FILE.cpuprofile: a profile's time by category (socket writes, SQLite, ws framing, zod, ...).
import { readFileSync } from 'node:fs';
const p = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const byId = new Map(p.nodes.map((n) => [n.id, n]));
const parent = new Map(); for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const cats = [
  ['socket writes (writev)', (f) => f.functionName === 'writev' || f.functionName === 'writevGeneric' || f.functionName === 'writeGeneric' || f.functionName === 'writeBuffer'],
  ['sqlite commit', (f) => f.functionName === 'commitGroup'],
  ['sqlite statements', (f) => /sqlite\.ts/.test(f.url)],
  ['zod parse', (f) => /zod/.test(f.url)],
  ['JSON.stringify / parse', (f) => f.functionName === 'stringify' || f.functionName === 'parse' && !f.url],
  ['ws framing (send, receiver)', (f) => /node_modules\/ws\//.test(f.url)],
  ['gateway code', (f) => /src\/gateway\//.test(f.url)],
  ['garbage collector', (f) => f.functionName === '(garbage collector)'],
  ['idle', (f) => f.functionName === '(idle)'],
  ['module loading (startup)', (f) => /loader|hooks|realm|lexer|esm/.test(f.url) || f.functionName === 'compileSourceTextModule'],
];
const dt = new Map(); p.samples.forEach((id, i) => dt.set(id, (dt.get(id) ?? 0) + (p.timeDeltas[i] ?? 0)));
const totals = new Map(); let all = 0;
for (const [id, t] of dt) {
  all += t;
  let cat = 'other';
  // leaf-up for the most specific category, in list order of priority
  const chain = []; for (let n = id; n !== undefined; n = parent.get(n)) chain.push(byId.get(n).callFrame);
  outer: for (const [name, test] of cats) for (const f of chain) if (test(f)) { cat = name; break outer; }
  totals.set(cat, (totals.get(cat) ?? 0) + t);
}
const busy = all - (totals.get('idle') ?? 0) - (totals.get('module loading (startup)') ?? 0);
for (const [k, v] of [...totals].sort((a, b) => b[1] - a[1])) console.log((v / 1000).toFixed(0).padStart(7), 'ms', k.padEnd(30), k === 'idle' || k.startsWith('module') ? '' : `${((v / busy) * 100).toFixed(1)} % of busy`);
