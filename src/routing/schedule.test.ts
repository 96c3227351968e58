/** Fixed instants only: every case names its UTC instant, so the machine's clock and zone play no part. */
import { describe, expect, it } from 'vitest';
import { parseRouting } from './config.ts';
import { onCallAt, onCallNow } from './schedule.ts';
import { simpleToolMatcher } from './tool-matcher.ts';
import type { Schedule } from './types.ts';

function schedule(raw: object): Schedule {
  const r = parseRouting({ schedules: { s: raw } }, { identities: ['ana', 'bo', 'cy', 'di'], tools: simpleToolMatcher });
  if (!r.ok) throw new Error(JSON.stringify(r.problems));
  return r.routing.schedules.s;
}
const at = (iso: string) => Date.parse(iso);
const who = (s: Schedule, iso: string) => onCallAt(s, at(iso))?.identity ?? null;

describe('who is on call', () => {
  // Europe/Berlin: CET (+01:00) until 2026-03-29 01:00Z, CEST (+02:00) until 2026-10-25 01:00Z.
  const berlinWeekly = schedule({
    timezone: 'Europe/Berlin',
    layers: [{ members: ['ana', 'bo'], rotation: 'weekly', handoff: 'mon 09:00', start: '2026-03-01T00:00' }],
  });

  it('[E1] a weekly rotation hands off at 09:00 Berlin time on both sides of the March change', () => {
    // First handoff after the start: Monday 2026-03-02 09:00 CET = 08:00Z; ana's turn.
    expect(who(berlinWeekly, '2026-03-02T07:59:59Z')).toBeNull();
    expect(who(berlinWeekly, '2026-03-02T08:00:00Z')).toBe('ana');
    expect(who(berlinWeekly, '2026-03-09T08:00:00Z')).toBe('bo');
    expect(who(berlinWeekly, '2026-03-23T07:59:59Z')).toBe('ana');
    expect(who(berlinWeekly, '2026-03-23T08:00:00Z')).toBe('bo');
    // The week after the change: 09:00 CEST is 07:00Z.
    expect(who(berlinWeekly, '2026-03-30T06:59:59Z')).toBe('bo');
    expect(who(berlinWeekly, '2026-03-30T07:00:00Z')).toBe('ana');
    expect(onCallNow(berlinWeekly, at('2026-03-27T12:00:00Z'))).toEqual({
      now: { identity: 'bo', via: 'layer', layer: 0 },
      next: { identity: 'ana', via: 'layer', layer: 0 },
      nextAtMs: at('2026-03-30T07:00:00Z'),
    });
  });

  it('[E1] and on both sides of the October change', () => {
    // Monday 2026-10-19 09:00 CEST = 07:00Z; Monday 2026-10-26 09:00 CET = 08:00Z.
    const before = who(berlinWeekly, '2026-10-19T07:00:00Z');
    expect(who(berlinWeekly, '2026-10-19T06:59:59Z')).not.toBe(before);
    expect(who(berlinWeekly, '2026-10-26T07:59:59Z')).toBe(before);
    expect(who(berlinWeekly, '2026-10-26T08:00:00Z')).not.toBe(before);
    expect(onCallNow(berlinWeekly, at('2026-10-24T12:00:00Z')).nextAtMs).toBe(at('2026-10-26T08:00:00Z'));
  });

  it('[E1] a daily New York rotation follows the local clock across the November change', () => {
    const ny = schedule({ timezone: 'America/New_York', layers: [{ members: ['ana', 'bo', 'cy'], rotation: 'daily', handoff: '09:00', start: '2026-10-30T00:00' }] });
    // 09:00 EDT = 13:00Z (until 2026-11-01 06:00Z); 09:00 EST = 14:00Z after.
    expect(who(ny, '2026-10-30T13:00:00Z')).toBe('ana');
    expect(who(ny, '2026-10-31T13:00:00Z')).toBe('bo');
    expect(who(ny, '2026-11-01T13:59:59Z')).toBe('bo');
    expect(who(ny, '2026-11-01T14:00:00Z')).toBe('cy');
    expect(onCallNow(ny, at('2026-11-01T12:00:00Z')).nextAtMs).toBe(at('2026-11-01T14:00:00Z'));
    // And across the March change (2026-03-08 02:00): 09:00 EST on 03-07 = 14:00Z, 09:00 EDT on 03-08 = 13:00Z.
    const always = schedule({ timezone: 'America/New_York', layers: [{ members: ['ana', 'bo'], rotation: 'daily', handoff: '09:00' }] });
    expect(onCallNow(always, at('2026-03-07T13:59:00Z')).nextAtMs).toBe(at('2026-03-07T14:00:00Z'));
    expect(onCallNow(always, at('2026-03-07T15:00:00Z')).nextAtMs).toBe(at('2026-03-08T13:00:00Z'));
  });

  it('[E1] a 1h rotation steps over the hour the spring change skips', () => {
    const hourly = schedule({ timezone: 'Europe/Berlin', layers: [{ members: ['ana', 'bo', 'cy'], rotation: '1h', handoff: '00:00', start: '2026-03-29T01:00' }] });
    // 2026-03-29: 01:00 CET = 00:00Z, then 03:00 CEST = 01:00Z. The 02:00 shift (bo's) never happens.
    expect(who(hourly, '2026-03-29T00:30:00Z')).toBe('ana');
    expect(who(hourly, '2026-03-29T01:00:00Z')).toBe('cy');
    expect(who(hourly, '2026-03-29T02:00:00Z')).toBe('ana');
    expect(onCallNow(hourly, at('2026-03-29T00:30:00Z'))).toMatchObject({ next: { identity: 'cy' }, nextAtMs: at('2026-03-29T01:00:00Z') });
  });

  it('[E1] a 1h rotation over the hour the autumn change repeats: one shift lasts two hours, none flips back', () => {
    const hourly = schedule({ timezone: 'Europe/Berlin', layers: [{ members: ['ana', 'bo', 'cy'], rotation: '1h', handoff: '00:00', start: '2026-10-25T01:00' }] });
    // 2026-10-25: 01:00 CEST = 23:00Z (24th), 02:00-03:00 runs twice (00:00Z-01:00Z in CEST, 01:00Z-02:00Z in CET).
    expect(who(hourly, '2026-10-24T23:30:00Z')).toBe('ana');
    expect(who(hourly, '2026-10-25T00:30:00Z')).toBe('ana');
    expect(who(hourly, '2026-10-25T01:30:00Z')).toBe('bo');
    expect(who(hourly, '2026-10-25T02:30:00Z')).toBe('cy');
    expect(onCallNow(hourly, at('2026-10-24T23:30:00Z'))).toMatchObject({ next: { identity: 'bo' }, nextAtMs: at('2026-10-25T01:00:00Z') });
  });

  it('[E1] the last layer that covers the instant wins; restrict windows are in local time', () => {
    const s = schedule({
      timezone: 'Europe/Berlin',
      layers: [
        { members: ['cy'], rotation: 'weekly', handoff: 'mon 09:00' },
        { members: ['ana'], rotation: 'weekly', handoff: 'mon 09:00', restrict: ['mon-fri 09:00-18:00'] },
      ],
    });
    // Wednesday 2026-03-25 09:00 CET = 08:00Z; the following Wednesday 09:00 CEST = 07:00Z.
    expect(who(s, '2026-03-25T07:59:00Z')).toBe('cy');
    expect(who(s, '2026-03-25T08:00:00Z')).toBe('ana');
    expect(who(s, '2026-04-01T07:00:00Z')).toBe('ana');
    expect(who(s, '2026-04-01T16:00:00Z')).toBe('cy');
    expect(who(s, '2026-03-28T12:00:00Z')).toBe('cy'); // a Saturday
    expect(onCallNow(s, at('2026-04-01T12:00:00Z'))).toMatchObject({ now: { identity: 'ana', layer: 1 }, next: { identity: 'cy', layer: 0 }, nextAtMs: at('2026-04-01T16:00:00Z') });
  });

  it('[E1] business hours only: a gap at night, and next names when someone is on again', () => {
    const s = schedule({ timezone: 'America/New_York', layers: [{ members: ['bo'], rotation: 'daily', handoff: '09:00', restrict: ['mon-fri 09:00-17:00'] }] });
    // Friday 2026-03-06 17:00 EST = 22:00Z; Monday 2026-03-09 09:00 EDT = 13:00Z (the change was on Sunday).
    expect(onCallNow(s, at('2026-03-06T23:00:00Z'))).toEqual({ now: null, next: { identity: 'bo', via: 'layer', layer: 0 }, nextAtMs: at('2026-03-09T13:00:00Z') });
    expect(onCallNow(s, at('2026-03-06T21:00:00Z'))).toMatchObject({ now: { identity: 'bo' }, next: null, nextAtMs: at('2026-03-06T22:00:00Z') });
  });

  it('[E1] an override wins over every layer, from its start to its end', () => {
    const s = schedule({
      timezone: 'Europe/Berlin',
      layers: [{ members: ['ana'], rotation: 'weekly', handoff: 'mon 09:00' }],
      overrides: [{ member: 'di', start: '2026-10-24T20:00', end: '2026-10-25T08:00' }],
    });
    expect(who(s, '2026-10-24T17:59:59Z')).toBe('ana');
    expect(who(s, '2026-10-24T18:00:00Z')).toBe('di');
    // 08:00 on the day the clocks went back is 07:00Z.
    expect(who(s, '2026-10-25T06:59:59Z')).toBe('di');
    expect(who(s, '2026-10-25T07:00:00Z')).toBe('ana');
    expect(onCallNow(s, at('2026-10-24T12:00:00Z'))).toMatchObject({ now: { identity: 'ana' }, next: { identity: 'di', via: 'override' }, nextAtMs: at('2026-10-24T18:00:00Z') });
  });
});
