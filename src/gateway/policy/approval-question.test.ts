import { describe, expect, it } from 'vitest';
import { APPROVAL_OFFERS, grantRequestOf, isOffer } from '../../answers/kinds/approval-offers.ts';
import { approvalItems, approvalOffers } from './approval-question.ts';

const facts = { tool: 'Bash', input: { command: 'npm run build' }, cwd: '/repo', agent: 'agent' };
const ask = { decision: 'ask' as const, matchedRules: [], decidedBy: 'unmatched' as const };

describe('[G7] the offers the gateway makes are the ones the dock reads', () => {
  it('[G7][G12] each offer of the gateway\'s approval is an offer to the dock (its rule shown as one) and its answer asks for the offer\'s scope', () => {
    const offers = approvalOffers('Bash(npm run build *)', { session: true, project: true });
    const [item] = approvalItems(facts, { tool: 'Bash', input: facts.input, cwd: '/repo' }, ask, offers);
    expect(offers.map((o) => [o.label, o.scope])).toEqual(APPROVAL_OFFERS.map((o) => [o.label, o.scope]));
    for (const offer of offers) {
      expect(item.options.map((o) => o.label)).toContain(offer.label);
      // option-list.tsx marks an option as an offer with isOffer; the resolve carries grantRequestOf's grant.
      expect(isOffer(item, offer.label)).toBe(true);
      expect(grantRequestOf([item], { [item.id]: [offer.label] })).toEqual({ scope: offer.scope });
    }
  });

  it('[G7] a scope with nothing to bind to is not offered; the others keep the dock\'s order', () => {
    expect(approvalOffers('Bash(ls *)', { session: false, project: true }).map((o) => o.scope)).toEqual(['project', 'agent']);
    expect(approvalOffers('Bash(ls *)', { session: true, project: false }).map((o) => o.scope)).toEqual(['session', 'agent']);
    expect(approvalOffers(null, { session: true, project: true })).toEqual([]);
  });
});
