// Types of scripts/cli-bundle.mjs for the TypeScript that imports it (the hook bundle's test).
export declare const HOOK_BUNDLE_DIR: string;
export declare const HOOK_BUNDLE_ENTRY: string;
export declare function bundleHook(root: string, outDir: string, options?: { write?: boolean }): Promise<import('esbuild').Metafile>;
export declare function bundleSources(metafile: import('esbuild').Metafile): string[];
