/** E1: validating `routing.schedules`: time zones, layers, rotations, handoffs, windows and overrides. */
import { DateTime, IANAZone } from 'luxon';
import { child, members, names, Problems, record } from './check.ts';
import { parseHandoff, parseRotation, parseWindow, type Parsed, type Window } from './time-spec.ts';
import type { Layer, Override, Schedule } from './types.ts';

/** An instant: ISO 8601 with an offset, or without one in the schedule's time zone. */
function instant(p: Problems, path: string, value: unknown, zone: string): number | undefined {
  const dt = typeof value === 'string' ? DateTime.fromISO(value, { zone, setZone: true }) : null;
  if (!dt || !dt.isValid) {
    p.add(path, `must be a date and time such as "2026-03-02T09:00" (in the schedule's time zone) or "2026-03-02T08:00Z", got ${JSON.stringify(value)}`);
    return undefined;
  }
  return dt.toMillis();
}

function parsed<T>(p: Problems, path: string, r: Parsed<T>): T | undefined {
  if (r.ok) return r.value;
  p.add(path, r.problem);
  return undefined;
}

function layer(p: Problems, path: string, raw: unknown, zone: string, identities: ReadonlySet<string>): Layer | undefined {
  const l = record(p, path, raw, ['members', 'rotation', 'handoff', 'restrict', 'start']);
  if (!l) return undefined;
  const ms = members(p, child(path, 'members'), l.members, identities);
  const rotation = parsed(p, child(path, 'rotation'), parseRotation(l.rotation));
  const handoff = parsed(p, child(path, 'handoff'), parseHandoff(l.handoff));
  if (rotation && handoff && handoff.weekday === undefined && rotation.shiftMinutes > 1440)
    p.add(child(path, 'handoff'), `a "${rotation.text}" rotation hands off on a weekday: write it as "mon ${String(Math.floor(handoff.minute / 60)).padStart(2, '0')}:${String(handoff.minute % 60).padStart(2, '0')}"`);
  const restrict: Window[] = [];
  if (l.restrict !== undefined) {
    if (!Array.isArray(l.restrict) || l.restrict.length === 0) p.add(child(path, 'restrict'), 'must list at least one window such as "mon-fri 09:00-18:00" (or be left out)');
    else l.restrict.forEach((w, i) => {
      const window = parsed(p, child(child(path, 'restrict'), i), parseWindow(w));
      if (window) restrict.push(window);
    });
  }
  const startMs = l.start === undefined ? undefined : instant(p, child(path, 'start'), l.start, zone);
  if (!rotation || !handoff || ms.length === 0) return undefined;
  return { members: ms, rotation, handoff, restrict, ...(startMs !== undefined ? { startMs } : {}) };
}

function override(p: Problems, path: string, raw: unknown, zone: string, identities: ReadonlySet<string>): Override | undefined {
  const o = record(p, path, raw, ['member', 'start', 'end']);
  if (!o) return undefined;
  if (typeof o.member !== 'string' || !identities.has(o.member))
    p.add(child(path, 'member'), `${JSON.stringify(o.member)} is not the id of an identity in the config`);
  const startMs = instant(p, child(path, 'start'), o.start, zone);
  const endMs = instant(p, child(path, 'end'), o.end, zone);
  if (startMs !== undefined && endMs !== undefined && endMs <= startMs) p.add(child(path, 'end'), 'the override ends before it starts');
  if (typeof o.member !== 'string' || !identities.has(o.member) || startMs === undefined || endMs === undefined || endMs <= startMs) return undefined;
  return { member: o.member, startMs, endMs };
}

export function schedules(p: Problems, path: string, raw: unknown, identities: ReadonlySet<string>): Record<string, Schedule> {
  const out: Record<string, Schedule> = {};
  for (const [name, value] of names(p, path, raw)) {
    const at = child(path, name);
    const s = record(p, at, value, ['timezone', 'layers', 'overrides']);
    if (!s) continue;
    const zoneOk = typeof s.timezone === 'string' && IANAZone.isValidZone(s.timezone);
    if (!zoneOk) p.add(child(at, 'timezone'), `must be an IANA time zone such as "Europe/Berlin" or "America/New_York", got ${JSON.stringify(s.timezone)}`);
    const zone = zoneOk ? (s.timezone as string) : 'UTC';
    const layers: Layer[] = [];
    if (!Array.isArray(s.layers) || s.layers.length === 0) p.add(child(at, 'layers'), 'a schedule needs at least one layer ({members, rotation, handoff})');
    else s.layers.forEach((l, i) => {
      const parsedLayer = layer(p, child(child(at, 'layers'), i), l, zone, identities);
      if (parsedLayer) layers.push(parsedLayer);
    });
    const overrides: Override[] = [];
    if (s.overrides !== undefined && !Array.isArray(s.overrides)) p.add(child(at, 'overrides'), 'must be a list of {member, start, end}');
    else (s.overrides ?? []).forEach((o, i) => {
      const parsedOverride = override(p, child(child(at, 'overrides'), i), o, zone, identities);
      if (parsedOverride) overrides.push(parsedOverride);
    });
    out[name] = { name, timezone: zone, layers, overrides };
  }
  return out;
}
