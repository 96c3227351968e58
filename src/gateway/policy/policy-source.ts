import { watch, type FSWatcher } from 'node:fs';
import { basename, dirname } from 'node:path';
import { emptyPolicy, type CompiledPolicy } from '../../policy/index.ts';
import type { Clock } from '../infra/clock.ts';
import type { GatewayLog } from '../infra/logger.ts';
import { loadPolicy, PolicyLoadError, policyFileOf, type PolicyOrigin } from './policy-load.ts';

/** How long a burst of file changes (an editor's write, rename and chmod) settles before the file is read again. */
const RELOAD_SETTLE_MS = 150;

/**
 * The policy in force and when it was loaded; after a reload that failed (it kept the policy in force), why and when.
 * `loadedAtMs` stays the time of the policy in force: a failed reload loaded nothing.
 */
export type PolicyState = { policy: CompiledPolicy; loadedAtMs: number; error?: string; failedAtMs?: number };

/**
 * G1/G10: the policy in force. Loaded once at start (a policy that does not load stops the start); `approvals.file`
 * is read again when it changes and on SIGHUP; a reload that fails keeps the previous policy and says why.
 */
export class PolicySource {
  private state: PolicyState;
  private watcher: FSWatcher | null = null;
  private settle: ReturnType<typeof setTimeout> | null = null;
  private readonly listeners = new Set<(state: PolicyState) => void>();
  private readonly onHangUp = () => this.reload();

  private constructor(
    private readonly approvals: unknown,
    private readonly origin: PolicyOrigin,
    private readonly clock: Clock,
    private readonly log: GatewayLog,
    policy: CompiledPolicy,
  ) {
    this.state = { policy, loadedAtMs: clock.now() };
  }

  /** Throws PolicyLoadError when the policy does not load (G10). */
  static load(approvals: unknown, origin: PolicyOrigin, clock: Clock, log: GatewayLog): PolicySource {
    const loaded = loadPolicy(approvals, origin);
    if (!loaded.ok) throw new PolicyLoadError(loaded.message, loaded.problems);
    return new PolicySource(approvals, origin, clock, log, loaded.policy);
  }

  /** No rules: every approval asks (a gateway without `approvals`, tests). */
  static none(clock: Clock, log: GatewayLog): PolicySource {
    return new PolicySource(undefined, {}, clock, log, emptyPolicy());
  }

  get current(): PolicyState {
    return this.state;
  }

  /** L1: where the policy comes from (its file, or `config` for rules given inline); undefined when there is none. */
  get source(): string | undefined {
    if (this.approvals === undefined) return undefined;
    return policyFileOf(this.approvals, this.origin) ?? (this.origin.configFile ? `config ${this.origin.configFile}` : 'config');
  }

  onUpdated(fn: (state: PolicyState) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /** Reads the policy again; on failure keeps the one in force and records why. */
  reload(): PolicyState {
    const loaded = loadPolicy(this.approvals, this.origin);
    const now = this.clock.now();
    if (loaded.ok) {
      this.state = { policy: loaded.policy, loadedAtMs: now };
      this.log.info(`approval policy reloaded: ${loaded.policy.rules.length} rules`);
    } else {
      this.state = { policy: this.state.policy, loadedAtMs: this.state.loadedAtMs, error: loaded.message, failedAtMs: now };
      this.log.warn(`${loaded.message}; the previous policy stays in force`);
    }
    for (const fn of this.listeners) fn(this.state);
    return this.state;
  }

  /** Watches `approvals.file` (its folder: editors replace a file rather than write it) and listens for SIGHUP, when there is one. */
  start(): void {
    // Only a file can change under a running gateway; without one SIGHUP keeps its usual meaning.
    const file = policyFileOf(this.approvals, this.origin);
    if (!file) return;
    process.on('SIGHUP', this.onHangUp);
    try {
      this.watcher = watch(dirname(file), (_kind, name) => {
        if (name !== null && name !== basename(file)) return;
        if (this.settle) clearTimeout(this.settle);
        this.settle = setTimeout(() => {
          this.settle = null;
          this.reload();
        }, RELOAD_SETTLE_MS);
      });
      this.watcher.on('error', (err) => this.log.warn({ err }, `watching ${file} stopped; SIGHUP still reloads it`));
    } catch (err) {
      this.log.warn({ err }, `cannot watch ${file}; SIGHUP reloads it`);
    }
  }

  stop(): void {
    process.off('SIGHUP', this.onHangUp);
    this.watcher?.close();
    this.watcher = null;
    if (this.settle) clearTimeout(this.settle);
    this.settle = null;
  }
}
