import { describe, expect, it } from 'vitest';
import { grantRequestOf, grantScopeOf, mayMakeGrant, OFFER_AGENT, OFFER_PROJECT, OFFER_SESSION, recordWithChoosableOffers, withChoosableOffers } from './approval-offers.ts';
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

const GUEST = ['operator.sessions.write'];
const labels = (item: KindItem) => item.options.map((o) => o.label);

describe('[G5][A3] the grants an identity may make, and the offers it is shown', () => {
  it('[G5][A3] a session grant is anyone\'s; project and agent need operator.admin or operator.questions; everyone needs operator.admin', () => {
    const table = (scopes: Iterable<string>) => (['session', 'project', 'agent', 'everyone'] as const).map((scope) => mayMakeGrant(scopes, scope));
    expect(table(GUEST)).toEqual([true, false, false, false]);
    expect(table([])).toEqual([true, false, false, false]);
    expect(table(['operator.questions'])).toEqual([true, true, true, false]);
    expect(table(new Set(['operator.read', 'operator.admin']))).toEqual([true, true, true, true]);
  });

  it('[G5] a guest is offered Allow, Deny and the session offer; operator.questions and admins every offer; unknown scopes keep all', () => {
    expect(labels(withChoosableOffers(approval, GUEST))).toEqual(['Allow', 'Deny', OFFER_SESSION]);
    expect(withChoosableOffers(approval, GUEST).options[2].description).toBe('Bash(npm run test *)');
    expect(withChoosableOffers(approval, ['operator.questions'])).toBe(approval);
    expect(withChoosableOffers(approval, ['operator.admin'])).toBe(approval);
    expect(withChoosableOffers(approval, null)).toBe(approval);
  });

  it('[G5] only approvals lose offers: a choice whose options read like offers keeps them, and a record without approvals is the same object', () => {
    const choice: KindItem = { ...approval, id: 'ask', kind: undefined };
    expect(withChoosableOffers(choice, GUEST)).toBe(choice);
    const record = { id: 'r', questions: [choice] };
    expect(recordWithChoosableOffers(record, GUEST)).toBe(record);
    const both = recordWithChoosableOffers({ id: 'r', questions: [choice, approval] }, GUEST);
    expect(both.questions.map(labels)).toEqual([labels(approval), ['Allow', 'Deny', OFFER_SESSION]]);
    expect(both.id).toBe('r');
  });
});
