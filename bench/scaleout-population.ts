/**
 * Who the scale-out rows serve. Every row, whatever its gateways, serves the same clients and chains: the same
 * operators and agents connected, the same sessions asked in by the same agent and answered by the same operator. Only
 * where each client connects differs: all on the one gateway in a one-gateway row, one of each per gateway in the
 * three-gateway rows. So the gateways' summed CPU per round trip compares the same work (issue 57 item 3: whether a
 * gateway more adds cost or only capacity), and the frames each event owes its connections do not grow with the
 * number of gateways.
 */
export const POPULATION = { operators: 3, agents: 3 };

/** One chain: the agent that asks in its session, the operator that created the session, the one that answers. */
export type ChainPlace = { agent: number; creator: number; answerer: number };

export type Placement = {
  /** The gateway (an index into the row's gateways) each operator connects to. */
  operators: number[];
  /** The gateway each agent connects to. */
  agents: number[];
  chains: ChainPlace[];
};

/**
 * Client k of each kind connects to gateway k mod `gateways`. Chain i is asked by agent i mod agents in a session
 * operator i mod operators created, and answered by the next operator: with one operator per gateway, on the gateway
 * after the asker's, so the answer crosses gateways as a deployment's would.
 */
export function placement(gateways: number, chains: number, population = POPULATION): Placement {
  if (!Number.isInteger(gateways) || gateways < 1) throw new Error(`placement: gateways must be a whole number >= 1, got ${gateways}`);
  const on = (count: number) => Array.from({ length: count }, (_, k) => k % gateways);
  return {
    operators: on(population.operators),
    agents: on(population.agents),
    chains: Array.from({ length: chains }, (_, i) => ({
      agent: i % population.agents,
      creator: i % population.operators,
      answerer: (i + 1) % population.operators,
    })),
  };
}

/**
 * The rows' health checks (GET /healthz, whose p99 is an aim of its own): one every HEALTH_CHECK_EVERY_MS in every row,
 * taken by the row's gateways in turn. Checking each gateway every 50 ms made the checks a load that tripled with the
 * gateways: 20 a second cost an idle gateway about 16 ms of CPU a second on this machine, which a row at 25 round trips/s
 * counted as 0.6 ms per round trip per gateway (bench/FINDINGS.md section 64).
 */
export const HEALTH_CHECK_EVERY_MS = 50;

/** The gateway the k-th health check goes to. */
export function healthCheckTarget(k: number, gateways: number): number {
  return k % gateways;
}
