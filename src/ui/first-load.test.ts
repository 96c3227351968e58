import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIRST_LOAD_BUDGET_KB, firstLoadKb } from '../../bench/bundle-size.ts';

const ROOT = join(import.meta.dirname, '..');
/** Modules that bring the protocol's zod schemas, loaded by the Control UI only as chunks of their own (or in Node). */
const SCHEMA_DOORS = new Set(['client/protocol-checks.ts', 'client/node.ts']);

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sources(path);
    return /\.tsx?$/.test(e.name) && !/\.test\.tsx?$|test-helpers|fakes/.test(e.name) ? [path] : [];
  });
}

/** Files of `ui` that import something `page` matches, other than `page`'s own files. */
function staticImportsOf(page: RegExp): string[] {
  const offenders: string[] = [];
  for (const file of sources(join(ROOT, 'ui'))) {
    const name = relative(ROOT, file);
    if (page.test(name)) continue;
    for (const m of readFileSync(file, 'utf8').matchAll(/^import\s[^;]*?from\s+'([^']+)'|^import\s+'([^']+)'/gm)) {
      const from = m[1] ?? m[2];
      if (page.test(join(file, '..', from).replace(/\\/g, '/'))) offenders.push(`${name}: ${m[0]}`);
    }
  }
  return offenders;
}

/** What main.tsx loads before any `import()`: the app's own modules (relative to src/) and the packages by name. */
function firstLoadGraph(): Set<string> {
  const seen = new Set<string>();
  const visit = (file: string) => {
    const name = relative(ROOT, file);
    if (seen.has(name)) return;
    seen.add(name);
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/^(?:import|export)\s+(type\s+)?(?:([^;'"]*?)\s+from\s+)?'([^']+)'/gm)) {
      const [, typeOnly, names, from] = m;
      if (typeOnly || (names && /^\{(\s*type\s+[^,}]+,?)*\s*\}$/.test(names))) continue;
      if (from.startsWith('.')) visit(resolve(dirname(file), from));
      else seen.add(from);
    }
  };
  visit(join(ROOT, 'ui/main.tsx'));
  return seen;
}

describe('the Control UI first load (issue 57: at most 110 KB gzipped)', () => {
  describe('as built', () => {
    // A build of its own (dist/ may be older than the sources, or absent), in production as `npm run build` is: under
    // vitest NODE_ENV is "test", and React would come in its development build. Measured as the build's closing line is.
    const outDir = mkdtempSync(join(tmpdir(), 'askdock-first-load-'));
    let first: { kb: number; files: string[] } = { kb: 0, files: [] };
    const text = (file: string) => readFileSync(join(outDir, file.replace(/^\//, '')), 'utf8');
    beforeAll(async () => {
      const project = join(ROOT, '..');
      const vite = join(project, 'node_modules/vite/bin/vite.js');
      await promisify(execFile)(process.execPath, [vite, 'build', '--outDir', outDir, '--emptyOutDir', '--logLevel', 'error'], {
        cwd: project,
        env: { ...process.env, NODE_ENV: 'production' },
      });
      first = firstLoadKb(outDir);
    }, 120_000);
    afterAll(() => rmSync(outDir, { recursive: true, force: true }));

    it(`[U11] built from these sources, the first load is at most bench/bundle-size.ts's ${FIRST_LOAD_BUDGET_KB} KB of gzipped JS`, () => {
      expect(first.files.length).toBeGreaterThan(0);
      expect(first.files.filter((f) => !existsSync(join(outDir, f.replace(/^\//, ''))))).toEqual([]);
      expect(first.kb, `first load ${first.kb.toFixed(1)} KB gzipped`).toBeLessThanOrEqual(FIRST_LOAD_BUDGET_KB);
    });

    it('[Q2][T3] the checks of what a client asks (request-rules.ts) come with the schemas\' chunk: the UI never asks', () => {
      const messages = ['is used twice', 'takes no options', 'multiSelect is only for choice questions'];
      const firstText = first.files.map(text).join('\n');
      expect(messages.filter((m) => firstText.includes(m))).toEqual([]);
      // They are in the build still, in the chunk of the schemas the client reads frames with.
      const assets = readdirSync(join(outDir, 'assets')).filter((f) => f.endsWith('.js'));
      const lazyText = assets.map((f) => text(`assets/${f}`)).join('\n');
      expect(messages.filter((m) => !lazyText.includes(m))).toEqual([]);
    });

    it('[U6][U11] the modules the dock imports by name (the slim bars, the drafts\' later changes) are chunks apart from the drafts store: a retried import runs its chunk again, and the store with it would be a second one', () => {
      const assets = readdirSync(join(outDir, 'assets')).filter((f) => f.endsWith('.js'));
      const store = 'askdock.question-drafts';
      const named = ['collapsed-bar-', 'draft-changes-'].map((name) => assets.filter((f) => f.startsWith(name)));
      expect(named.map((files) => files.length)).toEqual([1, 1]);
      expect(named.flat().filter((f) => text(`assets/${f}`).includes(store))).toEqual([]);
      expect(assets.filter((f) => text(`assets/${f}`).includes(store)).length).toBe(1);
    });
  });

  it('[U11] the outbox sender, its IndexedDB storage and idb arrive as a chunk after the first screen', () => {
    const first = firstLoadGraph();
    expect(first.has('ui/main.tsx') && first.has('ui/lib/outbox/use-outbox.ts')).toBe(true);
    const late = ['ui/lib/outbox/outbox.ts', 'ui/lib/outbox/pump.ts', 'ui/lib/outbox/storage.ts', 'idb'];
    expect(late.filter((m) => first.has(m))).toEqual([]);
  });

  it('[U12] the first screen\'s screen-reader-only text and live region need no component library (radix-ui loads with the dialogs and menus)', () => {
    const first = firstLoadGraph();
    expect(first.has('ui/features/questions/components/live-announcer.tsx')).toBe(true);
    expect([...first].filter((m) => m === 'radix-ui' || m.startsWith('@radix-ui/'))).toEqual([]);
  });


  it('browser code reaches zod only through a lazily loaded chunk', () => {
    const offenders: string[] = [];
    for (const file of ['ui', 'client', 'answers', 'lib'].flatMap((d) => sources(join(ROOT, d)))) {
      const name = relative(ROOT, file);
      if (SCHEMA_DOORS.has(name)) continue;
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(/^import\s+(type\s+)?([^;]*?)\s+from\s+'([^']+)'/gm)) {
        const [, typeOnly, names, from] = m;
        if (typeOnly || /^\{(\s*type\s+[^,}]+,?)*\s*\}$/.test(names)) continue;
        const schemaModule = /protocol\/(index|errors|question|session|secret|frames|methods|events|scopes|policy)\.ts$/.test(from);
        if (from === 'zod' || from.startsWith('zod/') || schemaModule) offenders.push(`${name}: ${m[0]}`);
      }
    }
    expect(offenders).toEqual([]);
  });

  it('[U7] the question summaries a transcript shows load with the transcript, not with the first screen', () => {
    const first = firstLoadGraph();
    expect(first.has('ui/features/questions/index.tsx')).toBe(true);
    const late = ['ui/features/questions/components/question-summary.tsx', 'ui/features/questions/components/reply-answers.tsx', 'ui/features/questions/components/summary-answers.tsx'];
    expect(late.filter((m) => first.has(m))).toEqual([]);
  });

  it('[U8] an answer\'s way out (submit-answer and the Q9 reply writer) loads with the dock\'s panel and the composer\'s checks', () => {
    const first = firstLoadGraph();
    expect(first.has('ui/app/composer-checks.tsx')).toBe(true);
    expect(['ui/features/questions/api/submit-answer.ts', 'client/resend.ts'].filter((m) => first.has(m))).toEqual([]);
  });

  it('[U11] the drafts store, the answer readers and the slim bars that show a draft\'s step arrive as chunks before the app connects', () => {
    const first = firstLoadGraph();
    expect(first.has('ui/features/questions/components/question-dock.tsx') && first.has('protocol/rules.ts')).toBe(true);
    const late = [
      'ui/features/questions/stores/drafts.ts',
      'ui/features/questions/stores/draft-changes.ts',
      'ui/features/questions/components/collapsed-bar.tsx',
      'answers/collect.ts',
      'answers/async-reply.ts',
      'answers/kinds/index.ts',
      'protocol/request-rules.ts',
    ];
    expect(late.filter((m) => first.has(m))).toEqual([]);
  });

  it('[G12] the Rules page and what only it uses are reached only through import(), never a static import', () => {
    const PAGE = /features\/policy\/(components\/(rules-page|policy-rules|policy-grants|revoke-grant-button|decision-badge)\.tsx|lib\/grant-text\.ts|api\/revoke-grant\.ts|policy\.css)$/;
    expect(staticImportsOf(PAGE)).toEqual([]);
  });

  it('[E9] the On call page and the dock\'s routing row (with its hand-off popover) are reached only through import()', () => {
    // The secret prompt (reached through import() itself) shows a routed request's line: it may take it in its chunk.
    const PAGE = /features\/(routing\/(components\/(on-call-page|on-call-cells|route-row|route-line|secret-route-line|handoff-popover|route-countdown)\.tsx|api\/route-actions\.ts|routing\.css)|questions\/components\/secret-prompt\.tsx)$/;
    expect(staticImportsOf(PAGE)).toEqual([]);
  });
  it('[U15] the Inbox page is reached only through import(): the first screen is a session or the home page', () => {
    expect(staticImportsOf(/ui\/app\/inbox-page\.tsx$/)).toEqual([]);
  });
});
