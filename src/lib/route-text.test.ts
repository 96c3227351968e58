import { describe, expect, it } from 'vitest';
import type { RouteState } from '../protocol/routing.ts';
import { ackText, forbiddenText, formatCountdown, handedOffDrafts, heldVoteText, mayAnswer, ownApprovalText, quorumText, waitsForText } from './route-text.ts';

const route: RouteState = { escalation: 'prod', step: 0, notified: ['ana'], eligible: ['ana'], nextAtMs: 10_000 };

describe('route text (E3-E5, E9)', () => {
  it('[E9] the countdown reads minutes and seconds, hours when long', () => {
    expect(formatCountdown(252_000)).toBe('4:12');
    expect(formatCountdown(3_723_000)).toBe('1:02:03');
    expect(formatCountdown(-5)).toBe('0:00');
    expect(waitsForText(route)).toBe('ana');
  });
  it('[E4] "ana is on it" only while the acknowledgement holds', () => {
    const acked = { ...route, ackedBy: { identity: 'ana', atMs: 0, untilMs: 1_000 } };
    expect(ackText(acked, 500)).toBe('ana is on it');
    expect(ackText({ ...route, ackedBy: { ...acked.ackedBy, name: 'Ana' } }, 500)).toBe('Ana is on it');
    expect(ackText(acked, 1_000)).toBeNull();
    expect(ackText(route, 0)).toBeNull();
  });
  it('[E5] the quorum counts each person once and names them', () => {
    const q = { ...route, quorum: { needed: 2, approvals: [{ identity: 'ana', surface: 'control-ui', atMs: 1 }, { identity: 'ana', surface: 'tui', atMs: 2 }] } };
    expect(quorumText(q)).toBe('1 of 2 approvals (ana)');
    const named = { ...route, quorum: { needed: 2, approvals: [{ identity: 'ana', name: 'Ana', surface: 'tui', atMs: 1 }, { identity: 'bo', name: 'Bo', surface: 'tui', atMs: 2 }] } };
    expect(quorumText(named)).toBe('2 of 2 approvals (Ana, Bo)');
    expect(quorumText(route)).toBeNull();
  });
  it('[E5][G5] an approval holding an "Always allow…" says which, so a held vote does not read as a plain Allow', () => {
    const grant = { scope: 'project' as const, rule: 'Bash(make deploy)' };
    const held = { ...route, quorum: { needed: 2, approvals: [{ identity: 'ana', name: 'Ana', surface: 'tui', atMs: 1, grant }] } };
    expect(quorumText(held)).toBe('1 of 2 approvals (Ana: always in this project)');
  });
  it('[E5] a held Allow tells its voter it counted and how many more are needed; a repeat says it was already counted', () => {
    const quorum = { needed: 2, approvals: [{ identity: 'ana', name: 'Ana', surface: 'tui', atMs: 1 }] };
    expect(heldVoteText(quorum, false)).toBe('Approval counted: 1 of 2 approvals (Ana). Waiting for 1 more person.');
    expect(heldVoteText(quorum, true)).toBe('Your approval was already counted: 1 of 2 approvals (Ana). Waiting for 1 more person.');
    expect(heldVoteText({ needed: 3, approvals: quorum.approvals }, false)).toBe('Approval counted: 1 of 3 approvals (Ana). Waiting for 2 more people.');
    expect(ownApprovalText({ quorum }, 'ana')).toBe('Your approval is counted. Waiting for 1 more person.');
    expect(ownApprovalText({ quorum }, 'bo')).toBeNull();
  });
  it('[E3] only the notified and admins may answer; the refusal names who it waits for', () => {
    expect(mayAnswer(route, 'ana', false)).toBe(true);
    expect(mayAnswer(route, 'bo', false)).toBe(false);
    expect(mayAnswer(route, 'bo', true)).toBe(true);
    expect(forbiddenText(['ana', 'bo'])).toBe('Waiting for ana, bo');
  });
});

describe('hand-off drafts (E6)', () => {
  const drafts = { env: ['Production'] };
  const handedToBo: RouteState = {
    escalation: 'prod',
    step: 0,
    notified: ['ana', 'bo'],
    eligible: ['ana', 'bo'],
    handoffs: [{ from: 'ana', to: 'identity:bo', atMs: 7, drafts, reached: ['bo'] }],
  };

  it('[E6] go to the hand-off\'s target alone, keyed by the hand-off', () => {
    expect(handedOffDrafts(handedToBo, 'bo')).toEqual({ atMs: 7, drafts });
    expect(handedOffDrafts(handedToBo, 'ana')).toBeNull();
    expect(handedOffDrafts(handedToBo, 'cy')).toBeNull();
    expect(handedOffDrafts({ ...handedToBo, notified: ['ana', 'bo', 'cy'], eligible: ['ana', 'bo', 'cy'] }, 'cy')).toBeNull();
  });

  it('[E3][E6] not to a target who may not answer', () => {
    expect(handedOffDrafts({ ...handedToBo, eligible: ['ana'] }, 'bo')).toBeNull();
  });
});
