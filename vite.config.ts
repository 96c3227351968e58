import { createHash } from 'node:crypto';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { PROTOCOL_VERSION } from './src/protocol/version.ts';

const gateway = process.env.ASKDOCK_GATEWAY ?? 'http://127.0.0.1:7420';

/** U17: files of `public/` the installed app needs offline (the built ones are listed from the bundle). */
const PUBLIC_SHELL = ['/favicon.svg', '/manifest.webmanifest', '/icons/icon-192.png', '/icons/icon-512.png', '/icons/maskable-512.png', '/icons/apple-touch-icon-180.png', '/icons/badge-96.png'];

/**
 * U17: the service worker is its own entry, built to `/sw.js` (served at the root, so its scope is the whole app), with
 * the list of built files and a version made of their hashed names and index.html written into it: a new build is a
 * new cache, and the worker drops the old one on activate.
 */
function serviceWorker(): Plugin {
  return {
    name: 'askdock-service-worker',
    apply: 'build',
    generateBundle(_options, bundle) {
      const worker = Object.values(bundle).find((f) => f.type === 'chunk' && f.name === 'sw');
      if (!worker || worker.type !== 'chunk') return;
      const built = Object.keys(bundle)
        .filter((name) => name.startsWith('assets/'))
        .map((name) => `/${name}`)
        .sort();
      const index = bundle['index.html'];
      const hash = createHash('sha256').update(built.join('\n'));
      if (index?.type === 'asset') hash.update(index.source);
      const shell = { version: hash.digest('hex').slice(0, 16), files: [...built, ...PUBLIC_SHELL], protocol: PROTOCOL_VERSION };
      worker.code = worker.code.replaceAll('__ASKDOCK_SHELL__', JSON.stringify(shell));
    },
  };
}

/**
 * What left the first load for the dock's gate (bench/FINDINGS.md section 88), kept in one chunk. Not the modules the
 * app imports lazily by name (stores/draft-changes, components/collapsed-bar): a failed import is retried at an address
 * of its own, which runs its chunk again, and the drafts store in that chunk would run again too, a second store.
 */
const DOCK_DRAFTS =
  /\/src\/(answers\/(collect|async-reply|kinds\/(index|approval|choice|choice-reading|confirm|fixed-labels|input|input-rules|link))|ui\/features\/questions\/(stores\/drafts|components\/(own-page-link|time-left)|lib\/time-left))\.tsx?$/;

export default defineConfig({
  plugins: [react(), serviceWorker()],
  build: {
    outDir: 'dist',
    sourcemap: false,
    chunkSizeWarningLimit: 400,
    // No modulepreload polyfill in the first load: browsers without modulepreload (Safari < 17, Firefox < 115) still load
    // every chunk, only without fetching a chunk's imports ahead of it.
    modulePreload: { polyfill: false },
    rollupOptions: {
      input: { index: 'index.html', sw: 'src/ui/sw/service-worker.ts' },
      output: {
        entryFileNames: (chunk) => (chunk.name === 'sw' ? 'sw.js' : 'assets/[name]-[hash].js'),
        // Every module the first screen imports statically goes into the entry chunk: one file gzips about 3.5 KB smaller
        // than the nine shared chunks the lazy pages split it into (bench/FINDINGS.md section 45). The service worker stays apart.
        codeSplitting: {
          groups: [
            { name: 'first', tags: ['$initial'], test: (id: string) => !id.includes('/src/ui/sw/') },
            // The drafts store, the answer readers it needs and the slim bars: one chunk the client waits for before it
            // connects (with the dock's panels), rather than the seven shared ones they would split into (section 88).
            { name: 'dock-drafts', test: (id: string) => DOCK_DRAFTS.test(id) },
          ],
        },
      },
    },
  },
  // The gateway checks Host (S3) and Origin (S1): the dev proxy presents itself as the gateway's own page.
  server: {
    proxy: {
      '/ws': { target: gateway, ws: true, changeOrigin: true, headers: { origin: gateway } },
      '/healthz': { target: gateway, changeOrigin: true },
    },
  },
});
