import type { ClientMode } from '../../protocol/index.ts';
import type { Identity } from '../auth.ts';

/** Who is answering, as far as the surface goes: the connection's `client.mode`, or what an in-process adapter names. */
export type SurfaceSource = { mode: ClientMode; surface?: string };

const byMode: Partial<Record<ClientMode, string>> = { ui: 'control-ui', tui: 'tui', cli: 'cli' };

/**
 * Q1 `surface` of an answer whose request names none: an in-process adapter's own (`channel:<name>`), else the
 * connection's mode (`ui` -> `control-ui`, `tui` -> `tui`, `cli` -> `cli`); undefined for other modes.
 */
export function connectionSurface(source: SurfaceSource): string | undefined {
  return source.surface ?? byMode[source.mode];
}

/**
 * The surface of an answer given as a chat message: PT5's for a blocking question's plain reply (`tui` from the TUI,
 * an adapter's own `channel:<name>`, else `plain-text`); a Q9 async answer names the sending surface as an answer
 * by `question.resolve` would (`control-ui` for the Control UI's outbox), `plain-text` where there is none.
 */
export function replySurface(source: SurfaceSource, mode: 'blocking' | 'async'): string {
  if (mode === 'async') return connectionSurface(source) ?? 'plain-text';
  return source.surface ?? (source.mode === 'tui' ? 'tui' : 'plain-text');
}

/** Where an answer came from when the caller does not say (Q1 `surface`). */
export function defaultSurface(identity: Identity): string {
  return identity.role === 'agent' ? 'sdk' : 'control-ui';
}
