import { spawn } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { seed, writeEverything, type Harness } from './contract-fixtures.ts';
import type { Store } from '../types.ts';

const here = dirname(fileURLToPath(import.meta.url));
const projectRoot = resolve(here, '../../../..');

type ChildResult = { acked: number[]; signal: NodeJS.Signals | null; code: number | null; stderr: string };

/** Runs src/testing/durability-child.ts on `file` and kills it with SIGKILL as soon as it acknowledges `killAfter` writes. */
export function runChildAndKill(file: string, killAfter: number): Promise<ChildResult> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(projectRoot, 'src/testing/durability-child.ts'), file], {
      cwd: projectRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const acked: number[] = [];
    let buffered = '';
    let stderr = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      buffered += chunk;
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      for (const line of lines) {
        const match = /^acked (\d+)$/.exec(line);
        if (match) acked.push(Number(match[1]));
      }
      if (acked.length >= killAfter && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      stderr += chunk;
    });
    child.on('error', reject);
    child.on('close', (code, signal) => resolvePromise({ acked, signal, code, stderr }));
  });
}

/** After the child's SIGKILL: every write it acknowledged is there, in order, none missing. */
export async function expectEveryAckedWrite(store: Store, acked: number[]): Promise<void> {
  try {
    const last = acked[acked.length - 1];
    expect(acked).toEqual(Array.from({ length: last }, (_, i) => i + 1));
    for (const i of acked) {
      expect((await store.getMessage(`m-${i}`))?.text).toBe(`write ${i}`);
      expect((await store.getIdempotent('child', `key-${i}`))).toStrictEqual({ messageId: `m-${i}`, seq: i });
      expect((await store.getQuestion(`q-${i}`))?.status).toBe('answered');
    }
    expect(Number((await store.getMeta('acked')))).toBeGreaterThanOrEqual(last);
    expect((await store.latestSeq())).toBeGreaterThanOrEqual(last);
    expect((await store.getSession('durable'))?.lastMessageAtMs).not.toBeNull();
  } finally {
    await store.close();
  }
}

/** Another connection to the same file or database sees a group's writes only once commitGroup returned. */
export async function groupSeenOnlyAfterCommit(harness: Harness): Promise<void> {
  const writer = await harness.open();
  const reader = await harness.open();
  await seed(writer);
  await writer.beginGroup();
  await writer.transaction(async () => writeEverything(writer));
  expect((await reader.getSession('s-new'))).toBeUndefined();
  expect((await reader.latestSeq())).toBe(2);
  await writer.commitGroup();
  expect((await reader.getSession('s-new'))).toBeDefined();
  expect((await reader.latestSeq())).toBe(4);
  await reader.close();
  await writer.close();
}

