import { mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import react from '@vitejs/plugin-react';
import { build } from 'vite';
import { uiBuildReason } from '../../src/cli/ui-build.ts';

/** Sources the UI bundles beyond those `askdock start` watches: the shared client and the protocol. */
const SHARED_SOURCES = ['src/client', 'src/protocol'];

function newestMtimeMs(path: string): number {
  const st = statSync(path, { throwIfNoEntry: false });
  if (!st) return 0;
  if (!st.isDirectory()) return st.mtimeMs;
  return Math.max(st.mtimeMs, ...readdirSync(path).map((entry) => newestMtimeMs(join(path, entry))));
}

/** Builds `dist/` with the project's vite.config.ts when it is missing or older than its sources; returns why, or null. */
export async function ensureUiBuilt(root: string): Promise<{ reason: string | null; seconds: number }> {
  const builtAt = newestMtimeMs(join(root, 'dist', 'index.html'));
  const shared = Math.max(...SHARED_SOURCES.map((p) => newestMtimeMs(join(root, p))));
  const reason = uiBuildReason(root) ?? (shared > builtAt ? 'the client or protocol changed since the last build' : null);
  if (!reason) return { reason: null, seconds: 0 };
  const t0 = performance.now();
  await build({ root, logLevel: 'warn' });
  return { reason, seconds: (performance.now() - t0) / 1000 };
}

const BARE_HTML = `<!doctype html>
<html lang="en">
  <head><meta charset="UTF-8" /><meta name="viewport" content="width=device-width, initial-scale=1" /><title>bare</title></head>
  <body><div id="root"></div><script type="module" src="/main.jsx"></script></body>
</html>
`;

// JSX, not TSX: the project typecheck includes bench/ and has no business checking a generated page.
const BARE_MAIN = `import { StrictMode, useState } from 'react';
import { createRoot } from 'react-dom/client';

function Composer() {
  const [text, setText] = useState('');
  return (
    <form onSubmit={(e) => { e.preventDefault(); setText(''); }}>
      <textarea aria-label="Message" rows={1} value={text} onChange={(e) => setText(e.target.value)} />
      <button type="submit" disabled={!text.trim()}>Send</button>
    </form>
  );
}

createRoot(document.getElementById('root')).render(<StrictMode><Composer /></StrictMode>);
`;

/** The baseline for first load: React 19 rendering one composer, built by the same vite and React plugin. */
export async function buildBareReact(root: string): Promise<string> {
  const dir = join(root, 'bench', '.tmp', 'bare-react');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'index.html'), BARE_HTML);
  writeFileSync(join(dir, 'main.jsx'), BARE_MAIN);
  const outDir = join(dir, 'dist');
  await build({ root: dir, configFile: false, logLevel: 'warn', plugins: [react()], build: { outDir, emptyOutDir: true } });
  return outDir;
}
