// Preloaded into a bench's gateway (`--import`, see scaleout.ts ASKDOCK_BENCH_PROFILE): SIGUSR2 starts a CPU profile
// sampled every 200 us, the next SIGUSR2 writes it to $ASKDOCK_PROFILE_OUT. bench/profiles/categories.mjs leaves the
// time this file spends (stopping the profiler) out of the busy time.
import { Session } from 'node:inspector';
import { writeFileSync } from 'node:fs';

const out = process.env.ASKDOCK_PROFILE_OUT;
if (out) {
  const session = new Session();
  session.connect();
  const post = (method, params = {}) => new Promise((ok, fail) => session.post(method, params, (err, res) => (err ? fail(err) : ok(res))));
  let on = false;
  process.on('SIGUSR2', () => {
    on = !on;
    const step = on
      ? post('Profiler.enable').then(() => post('Profiler.setSamplingInterval', { interval: 200 })).then(() => post('Profiler.start'))
      : post('Profiler.stop').then(({ profile }) => writeFileSync(out, JSON.stringify(profile)));
    step.catch((err) => process.stderr.write(`profile: ${err.message}\n`));
  });
}
