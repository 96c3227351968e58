import type { ClientMode } from '../protocol/index.ts';

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

/** PT5: a plain reply from a connection that names no surface of its own is `plain-text`. */
export function replySurface(source: SurfaceSource): string {
  return connectionSurface(source) ?? 'plain-text';
}
