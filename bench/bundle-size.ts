// Prints the gzipped JavaScript the Control UI loads before any lazy chunk. Issue 57 asks for at most 110 KB (120 KB in
// issue 20); the budget is held at 104 KB: the first load was 108.4 KB under a 109 KB budget (section 86) until the
// checks of what a client asks and the drafts store with its answer readers left it, to 102.9 (bench/FINDINGS.md section 88);
// 103.3 with the sign-in's scope checks of the same evening (who may create sessions and send); 104.0 after the gaps of
// 2026-12-08 (scopes kept per token for a reload, queued draft changes, the home page's words): the budget is 105 KB.
import { readFileSync, existsSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';

export const FIRST_LOAD_BUDGET_KB = 105;
const BUDGET_KB = FIRST_LOAD_BUDGET_KB;

export function firstLoadKb(dist = 'dist'): { kb: number; files: string[] } {
  const html = readFileSync(join(dist, 'index.html'), 'utf8');
  const files = new Set<string>();
  for (const m of html.matchAll(/<(?:script[^>]+src|link[^>]+rel="modulepreload"[^>]+href)="([^"]+\.js)"/g)) files.add(m[1]);
  let bytes = 0;
  for (const f of files) {
    const path = join(dist, f.replace(/^\//, ''));
    if (existsSync(path)) bytes += gzipSync(readFileSync(path)).length;
  }
  return { kb: bytes / 1024, files: [...files] };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { kb, files } = firstLoadKb();
  const verdict = kb <= BUDGET_KB ? 'within' : 'OVER';
  console.log(`first load: ${kb.toFixed(1)} KB gzipped JS in ${files.length} file(s), ${verdict} the ${BUDGET_KB} KB budget (ratio ${(kb / BUDGET_KB).toFixed(2)})`);
}
