import type { GatewayClient } from '../../src/client/client.ts';
import type { RestartableGateway } from '../../src/testing/restartable-gateway.ts';
import { Random, sleep } from './random.ts';

export type FaultLog = { drops: number; kills: number; restartMs: number[] };

/** Random socket drops every few seconds, and a SIGKILL + restart of one gateway (picked at random) every `killEveryMs` or so. */
export class Faults {
  readonly log: FaultLog = { drops: 0, kills: 0, restartMs: [] };
  private running = true;
  private readonly loops: Promise<void>[] = [];

  constructor(
    private readonly gateways: RestartableGateway[],
    private readonly clients: () => GatewayClient[],
    private readonly random: Random,
    private readonly killEveryMs: number,
    private readonly say: (line: string) => void,
  ) {}

  start(): void {
    this.loops.push(this.dropLoop(), this.killLoop());
  }

  async stop(): Promise<void> {
    this.running = false;
    await Promise.all(this.loops);
  }

  private async dropLoop() {
    while (this.running) {
      await sleep(this.random.int(1_500, 5_000));
      if (!this.running || !this.gateways.some((g) => g.running)) continue;
      this.random.pick(this.clients()).dropConnection();
      this.log.drops++;
    }
  }

  private async killLoop() {
    for (;;) {
      const wait = this.killEveryMs * (0.75 + this.random.next() * 0.5);
      const until = Date.now() + wait;
      while (this.running && Date.now() < until) await sleep(250);
      if (!this.running) return;
      const started = Date.now();
      const index = this.random.int(0, this.gateways.length - 1);
      const gateway = this.gateways[index];
      const name = this.gateways.length > 1 ? `gateway ${index + 1} (port ${gateway.port})` : 'the gateway';
      this.say(`SIGKILL ${name}`);
      await gateway.kill();
      this.log.kills++;
      await gateway.start();
      this.log.restartMs.push(Date.now() - started);
      this.say(`${name} back after ${Date.now() - started} ms`);
    }
  }
}
