/** Test helpers: `askdock hook` as the agent runs it (a child process fed one event on stdin), and its fixtures. */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { GatewayClient } from '../client/client.ts';
import type { EventPayload } from '../protocol/index.ts';
import { nextEvent } from './agent-harness.ts';

const HERE = dirname(fileURLToPath(import.meta.url));
const BIN = resolve(HERE, '../../bin/askdock.js');

/** A Claude Code / Codex hook event from src/testing/hook-fixtures. */
export const hookFixture = (name: string) => readFileSync(resolve(HERE, 'hook-fixtures', `${name}.json`), 'utf8');

export type HookOutput = { code: number | null; stdout: string; stderr: string };
export type Hook = { child: ChildProcess; done: Promise<HookOutput>; stderr: () => string };

/**
 * Runs `askdock hook` with `stdin` as its event; `keepOpen` writes it without ending stdin (as a caller still writing);
 * `env` is added to the test's environment.
 */
export function startHook(t: { url: string; agentToken: string; dir: string }, stdin: string | Buffer, extra: string[] = [], opts: { keepOpen?: boolean; env?: NodeJS.ProcessEnv } = {}): Hook {
  const env = opts.env ? { ...process.env, ...opts.env } : process.env;
  const child = spawn(process.execPath, [BIN, 'hook', '--url', t.url, '--token', t.agentToken, ...extra], { cwd: t.dir, env, stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
  // A hook that stops reading early (a refused event) closes its stdin under the writer.
  child.stdin!.on('error', () => undefined);
  if (opts.keepOpen) child.stdin!.write(stdin);
  else child.stdin!.end(stdin);
  const done = new Promise<HookOutput>((res) => child.on('close', (code) => res({ code, stdout, stderr })));
  return { child, done, stderr: () => stderr };
}

/**
 * The hook's next question as the operator sees it; fails as soon as the hook ends without asking (with what it
 * said on stderr), instead of waiting out the event's bound.
 */
export async function hookAsks(operator: GatewayClient, hook: Hook, requested = nextEvent(operator, 'question.requested')): Promise<EventPayload<'question.requested'>['question']> {
  const ended = hook.done.then((out) => {
    throw new Error(`the hook ended (exit ${out.code}) without asking: ${out.stderr.trim() || '(nothing on stderr)'}`);
  });
  const { question } = await Promise.race([requested, ended]);
  return question;
}

/** Runs `askdock ARGS` to its end with ASKDOCK_URL / ASKDOCK_TOKEN cleared (unless `env` sets them); what it printed. */
export function runAskdock(args: string[], opts: { cwd: string; env?: Record<string, string> }): Promise<HookOutput> {
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.ASKDOCK_URL;
  delete env.ASKDOCK_TOKEN;
  const child = spawn(process.execPath, [BIN, ...args], { cwd: opts.cwd, env: { ...env, ...opts.env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
  return new Promise<HookOutput>((res) => child.on('close', (code) => res({ code, stdout, stderr })));
}
