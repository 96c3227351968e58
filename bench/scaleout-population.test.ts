import { describe, expect, it } from 'vitest';
import { healthCheckTarget, placement, POPULATION } from './scaleout-population.ts';

const CHAINS = 32;
/** How many clients of a kind each gateway serves. */
const perGateway = (gateways: number, on: number[]) => Array.from({ length: gateways }, (_, g) => on.filter((x) => x === g).length);

describe('[D5] issue 57 item 3: every scale-out row serves the same clients', () => {
  it('[D5] one gateway and three serve the same operators, agents and chains; only where each connects differs', () => {
    const one = placement(1, CHAINS);
    const three = placement(3, CHAINS);
    // The same population, so the frames each event owes its connections are the same in both rows.
    expect(one.operators.length).toBe(three.operators.length);
    expect(one.agents.length).toBe(three.agents.length);
    expect(one.operators.length).toBe(POPULATION.operators);
    expect(one.agents.length).toBe(POPULATION.agents);
    // The same chains: the same agent asks in the same operator's session and the same operator answers.
    expect(one.chains).toEqual(three.chains);
    expect(one.chains).toHaveLength(CHAINS);
    // One gateway serves them all; three serve one operator and one agent each.
    expect(perGateway(1, one.operators)).toEqual([3]);
    expect(perGateway(1, one.agents)).toEqual([3]);
    expect(perGateway(3, three.operators)).toEqual([1, 1, 1]);
    expect(perGateway(3, three.agents)).toEqual([1, 1, 1]);
  });

  it('[D5] with three gateways every answer comes from another gateway than the ask, and the chains spread evenly', () => {
    const three = placement(3, CHAINS);
    for (const c of three.chains) expect(three.operators[c.answerer]).not.toBe(three.agents[c.agent]);
    const asked = perGateway(3, three.chains.map((c) => three.agents[c.agent]));
    expect(Math.max(...asked) - Math.min(...asked)).toBeLessThanOrEqual(1);
  });

  it('[D5] a row without a gateway is refused with the field named', () => {
    expect(() => placement(0, CHAINS)).toThrow(/gateways must be a whole number >= 1, got 0/);
  });

  it('[D5] the health checks are as many in every row, the gateways of a row taking them in turn', () => {
    const checks = 20;
    const taken = (gateways: number) => perGateway(gateways, Array.from({ length: checks }, (_, k) => healthCheckTarget(k, gateways)));
    expect(taken(1)).toEqual([20]);
    expect(taken(3)).toEqual([7, 7, 6]);
  });
});
