import { describe, expect, it } from 'vitest';
import { grantRequestOf, grantScopeOf, OFFER_AGENT, OFFER_PROJECT, OFFER_SESSION } from './approval-offers.ts';
import type { KindItem } from './kind.ts';

const approval: KindItem = {
  id: 'approval',
  kind: 'approval',
  header: 'Bash',
  question: 'Allow Bash(npm run test)?',
  options: [{ label: 'Allow' }, { label: 'Deny' }, { label: OFFER_SESSION, description: 'Bash(npm run test *)' }, { label: OFFER_PROJECT }, { label: OFFER_AGENT }],
};

describe('[G5][G12] the grant an approval answer asks for', () => {
  it('[G5] each offer names its scope, in any case; other answers name none', () => {
    expect([OFFER_SESSION, OFFER_PROJECT.toUpperCase(), ` ${OFFER_AGENT} `].map(grantScopeOf)).toEqual(['session', 'project', 'agent']);
    expect(['Allow', 'Deny', 'Always allow', ''].map(grantScopeOf)).toEqual([null, null, null, null]);
  });

  it('[G12] an approval answered with an offer it lists asks for that grant; Allow, typed text and offers it does not list ask for none', () => {
    expect(grantRequestOf([approval], { approval: [OFFER_PROJECT] })).toEqual({ scope: 'project' });
    expect(grantRequestOf([approval], { approval: ['Allow'] })).toBeUndefined();
    expect(grantRequestOf([approval], { approval: ['not on main'] })).toBeUndefined();
    const sessionOnly = { ...approval, options: approval.options.slice(0, 3) };
    expect(grantRequestOf([sessionOnly], { approval: [OFFER_AGENT] })).toBeUndefined();
    expect(grantRequestOf([{ ...approval, kind: undefined }], { approval: [OFFER_SESSION] })).toBeUndefined();
  });
});
