/**
 * E1: who is on call at an instant. An override wins; else the last layer that covers the instant (its rotation's
 * member, if its restrict windows include the instant). Shifts are counted in the schedule's wall-clock time, so a
 * "mon 09:00" handoff stays at 09:00 across daylight-saving changes; luxon turns wall times into instants.
 */
import { DateTime } from 'luxon';
import { inWindow } from './time-spec.ts';
import type { Layer, Schedule } from './types.ts';

const DAY_MS = 86_400_000;
/** Shifts are counted from the first handoff of the week of 2024-01-01, a Monday (any fixed Monday would do). */
const ANCHOR_WALL = Date.UTC(2024, 0, 1);
/** How far `next` looks for a change. */
const NEXT_HORIZON_MS = 62 * DAY_MS;

export interface OnCall { identity: string; via: 'override' | 'layer'; layer?: number }
export interface OnCallNow { now: OnCall | null; next: OnCall | null; nextAtMs: number | null }

/** The wall-clock time at an instant in the zone, as ms since a UTC-read epoch (so calendar steps are plain additions). */
function wallOf(atMs: number, zone: string): number {
  return atMs + DateTime.fromMillis(atMs, { zone }).offset * 60_000;
}

/** The instant a wall-clock time happens in the zone (a time skipped by a change moves forward past it, as luxon does). */
function instantOf(wall: number, zone: string): number {
  const u = DateTime.fromMillis(wall, { zone: 'utc' });
  return DateTime.fromObject({ year: u.year, month: u.month, day: u.day, hour: u.hour, minute: u.minute }, { zone }).toMillis();
}

class LayerClock {
  private readonly len: number;
  private readonly base: number;
  /** The first shift (members[0]'s), or undefined when the layer has no start and always covers. */
  private readonly first: number | undefined;
  constructor(private readonly layer: Layer, private readonly zone: string) {
    this.len = layer.rotation.shiftMinutes * 60_000;
    this.base = ANCHOR_WALL + ((layer.handoff.weekday ?? 1) - 1) * DAY_MS + layer.handoff.minute * 60_000;
    this.first = layer.startMs === undefined ? undefined : this.shiftAt(layer.startMs - 1) + 1;
  }
  startOf(k: number): number {
    return instantOf(this.base + k * this.len, this.zone);
  }
  /** The shift under way at the instant (wall-clock arithmetic, then checked against the real instants). */
  shiftAt(atMs: number): number {
    let k = Math.floor((wallOf(atMs, this.zone) - this.base) / this.len);
    while (this.startOf(k + 1) <= atMs) k++;
    while (this.startOf(k) > atMs) k--;
    return k;
  }
  begun(atMs: number): boolean {
    return this.first === undefined || this.startOf(this.first) <= atMs;
  }
  memberAt(atMs: number): string {
    const n = this.layer.members.length;
    const k = this.shiftAt(atMs) - (this.first ?? 0);
    return this.layer.members[((k % n) + n) % n];
  }
  covers(atMs: number): boolean {
    if (!this.begun(atMs)) return false;
    if (this.layer.restrict.length === 0) return true;
    const local = DateTime.fromMillis(atMs, { zone: this.zone });
    return this.layer.restrict.some((w) => inWindow(w, local.weekday, local.hour * 60 + local.minute));
  }
  /** Instants after `atMs` at which this layer's member or coverage may change. */
  changesAfter(atMs: number): number[] {
    const out = [this.startOf(this.shiftAt(atMs) + 1)];
    if (this.first !== undefined) out.push(this.startOf(this.first));
    const today = Math.floor(wallOf(atMs, this.zone) / DAY_MS) * DAY_MS;
    for (const w of this.layer.restrict)
      for (let d = -1; d <= 8; d++) {
        const day = today + d * DAY_MS;
        const end = w.endMinute > w.startMinute ? w.endMinute : w.endMinute + 1440;
        out.push(instantOf(day + w.startMinute * 60_000, this.zone), instantOf(day + end * 60_000, this.zone));
      }
    return out.filter((t) => t > atMs);
  }
}

const clocks = new WeakMap<Layer, LayerClock>();
function clockOf(layer: Layer, zone: string): LayerClock {
  let c = clocks.get(layer);
  if (!c) clocks.set(layer, (c = new LayerClock(layer, zone)));
  return c;
}

/** Who is on call at the instant, or null (a gap: nobody). */
export function onCallAt(schedule: Schedule, atMs: number): OnCall | null {
  for (let i = schedule.overrides.length - 1; i >= 0; i--) {
    const o = schedule.overrides[i];
    if (o.startMs <= atMs && atMs < o.endMs) return { identity: o.member, via: 'override' };
  }
  for (let i = schedule.layers.length - 1; i >= 0; i--) {
    const c = clockOf(schedule.layers[i], schedule.timezone);
    if (c.covers(atMs)) return { identity: c.memberAt(atMs), via: 'layer', layer: i };
  }
  return null;
}

function nextChangeAfter(schedule: Schedule, atMs: number): number | null {
  const candidates = schedule.layers.flatMap((l) => clockOf(l, schedule.timezone).changesAfter(atMs));
  for (const o of schedule.overrides) candidates.push(o.startMs, o.endMs);
  const later = candidates.filter((t) => t > atMs);
  return later.length ? Math.min(...later) : null;
}

/** Who is on call now, who comes next and when (null when nothing changes within about two months). */
export function onCallNow(schedule: Schedule, atMs: number): OnCallNow {
  const now = onCallAt(schedule, atMs);
  for (let t = nextChangeAfter(schedule, atMs); t !== null && t <= atMs + NEXT_HORIZON_MS; t = nextChangeAfter(schedule, t)) {
    const who = onCallAt(schedule, t);
    if (who?.identity !== now?.identity) return { now, next: who, nextAtMs: t };
  }
  return { now, next: null, nextAtMs: null };
}

/** E12 `routing.status`: each schedule's person now and next, by identity id (null: nobody). */
export function schedulesStatus(schedules: Record<string, Schedule>, atMs: number): { name: string; now: string | null; next: string | null; nextAtMs: number | null }[] {
  return Object.values(schedules).map((s) => {
    const { now, next, nextAtMs } = onCallNow(s, atMs);
    return { name: s.name, now: now?.identity ?? null, next: next?.identity ?? null, nextAtMs };
  });
}
