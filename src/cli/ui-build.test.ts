import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { uiBuildReason } from './ui-build.ts';

let root: string;
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** Sets the time of `path` and, for a directory, of everything under it. */
function age(path: string, atSeconds: number) {
  if (statSync(path).isDirectory()) for (const entry of readdirSync(path)) age(join(path, entry), atSeconds);
  utimesSync(path, atSeconds, atSeconds);
}

function write(path: string) {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, 'x');
}

describe('uiBuildReason', () => {
  it('builds when dist/ is missing, or older than any UI source; not when it is fresh', () => {
    root = mkdtempSync(join(tmpdir(), 'askdock-ui-'));
    write(join(root, 'index.html'));
    write(join(root, 'src/ui/features/chat/deep/file.tsx'));
    age(root, 1000);
    expect(uiBuildReason(root)).toBe('dist/ is missing');

    write(join(root, 'dist/index.html'));
    age(join(root, 'dist'), 2000);
    expect(uiBuildReason(root)).toBeNull();

    age(join(root, 'src/ui/features/chat/deep/file.tsx'), 3000);
    expect(uiBuildReason(root)).toBe('the UI sources changed since the last build');

    age(join(root, 'dist'), 4000);
    expect(uiBuildReason(root)).toBeNull();
    age(join(root, 'index.html'), 5000);
    expect(uiBuildReason(root)).toBe('the UI sources changed since the last build');
  });

  it('counts what the UI bundles from outside src/ui (the shared client, the protocol, answers, lib), not their tests', () => {
    root = mkdtempSync(join(tmpdir(), 'askdock-ui-'));
    write(join(root, 'index.html'));
    for (const dir of ['client', 'protocol', 'answers', 'lib']) {
      write(join(root, `src/${dir}/shared.ts`));
      write(join(root, `src/${dir}/shared.test.ts`));
    }
    write(join(root, 'src/gateway/server.ts'));
    age(root, 1000);
    write(join(root, 'dist/index.html'));
    age(join(root, 'dist'), 2000);
    expect(uiBuildReason(root)).toBeNull();
    // Only the gateway's own code and tests changed: the bundle has none of it.
    age(join(root, 'src/gateway'), 3000);
    for (const dir of ['client', 'protocol', 'answers', 'lib']) utimesSync(join(root, `src/${dir}/shared.test.ts`), 3000, 3000);
    expect(uiBuildReason(root)).toBeNull();
    for (const dir of ['client', 'protocol', 'answers', 'lib']) {
      age(join(root, 'dist'), 4000);
      utimesSync(join(root, `src/${dir}/shared.ts`), 5000, 5000);
      expect(uiBuildReason(root), dir).toBe('the UI sources changed since the last build');
    }
  });

  it('a test added beside the code or deleted is no reason to build; a new source is', () => {
    root = mkdtempSync(join(tmpdir(), 'askdock-ui-'));
    write(join(root, 'index.html'));
    write(join(root, 'src/ui/chat.tsx'));
    write(join(root, 'src/ui/old.test.tsx'));
    age(root, 1000);
    write(join(root, 'dist/index.html'));
    age(join(root, 'dist'), 2000);
    // The folder's own time is now, as the test files come and go.
    write(join(root, 'src/ui/chat.test.tsx'));
    unlinkSync(join(root, 'src/ui/old.test.tsx'));
    expect(uiBuildReason(root)).toBeNull();
    write(join(root, 'src/ui/new.tsx'));
    expect(uiBuildReason(root)).toBe('the UI sources changed since the last build');
  });
});
