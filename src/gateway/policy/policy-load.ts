import { dirname, resolve } from 'node:path';
import { compilePolicy, emptyPolicy, type CompiledPolicy, type PolicyProblem } from '../../policy/index.ts';

/** G10: a policy that does not load; `askdock gateway` stops at start with it (exit 1). */
export class PolicyLoadError extends Error {
  constructor(
    message: string,
    readonly problems: PolicyProblem[],
  ) {
    super(message);
    this.name = 'PolicyLoadError';
  }
}

export type PolicyLoad = { ok: true; policy: CompiledPolicy } | { ok: false; problems: PolicyProblem[]; message: string };

/** Where the config came from, as errors name it: its file, or `config` when given as an object. */
export type PolicyOrigin = { configFile?: string };

/** The folder `approvals.file` is read from: the config file's, else the working directory. */
export function policyBaseDir(origin: PolicyOrigin): string {
  return origin.configFile ? dirname(resolve(origin.configFile)) : process.cwd();
}

/** The file `approvals.file` names, resolved, or undefined when the block names none. */
export function policyFileOf(approvals: unknown, origin: PolicyOrigin): string | undefined {
  const file = approvals && typeof approvals === 'object' ? (approvals as { file?: unknown }).file : undefined;
  return typeof file === 'string' && file !== '' ? resolve(policyBaseDir(origin), file) : undefined;
}

/** G1/G10: the config's `approvals` block compiled (its file read); without one, no rules and `unmatched: ask`. */
export function loadPolicy(approvals: unknown, origin: PolicyOrigin): PolicyLoad {
  if (approvals === undefined) return { ok: true, policy: emptyPolicy() };
  const compiled = compilePolicy(approvals, { where: 'approvals', baseDir: policyBaseDir(origin) });
  if (compiled.ok) return compiled;
  const where = origin.configFile ? resolve(origin.configFile) : 'config';
  const list = compiled.problems.map((p) => `${p.path}: ${p.problem}`).join('; ');
  return { ok: false, problems: compiled.problems, message: `the approval policy in ${where} does not load (POLICY_INVALID): ${list}` };
}
