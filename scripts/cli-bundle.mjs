// X1: `askdock hook` runs on every tool call, so the compiled bin runs it from one bundle (dist-cli/hook/) rather than
// the ~170 modules it imports: the entry reads the event and a second file, loaded only for an event that is asked,
// holds the client, ws and the protocol's schemas. esbuild comes with tsx, a dependency.
import { join } from 'node:path';
import { build } from 'esbuild';

/** Where the hook's bundle goes inside dist-cli/, and its entry there. */
export const HOOK_BUNDLE_DIR = 'hook';
export const HOOK_BUNDLE_ENTRY = `${HOOK_BUNDLE_DIR}/hook.js`;

/**
 * Bundles src/cli/hook.ts into `<outDir>/hook/`. Returns esbuild's metafile (which sources went into which file).
 * `write: false` only works out the files (the tests read what each holds).
 */
export async function bundleHook(root, outDir, { write = true } = {}) {
  const result = await build({
    absWorkingDir: root,
    entryPoints: { hook: join(root, 'src', 'cli', 'hook.ts') },
    outdir: join(outDir, HOOK_BUNDLE_DIR),
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    chunkNames: 'hook-[hash]',
    // Less to parse on each start; names are kept, so a stack trace still reads.
    minifyWhitespace: true,
    minifySyntax: true,
    // ws is CommonJS and requires Node's modules: a bundle in ESM gives it a require of its own.
    banner: { js: "import { createRequire as askdockRequire } from 'node:module'; const require = askdockRequire(import.meta.url);" },
    metafile: true,
    write,
    logLevel: 'warning',
  });
  return result.metafile;
}

/** The sources (paths relative to `root`, no node_modules) a bundle was made from: the build stamp lists them. */
export function bundleSources(metafile) {
  return Object.keys(metafile.inputs).filter((p) => p.startsWith('src/'));
}
