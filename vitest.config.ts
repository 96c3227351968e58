import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

export default defineConfig({
  plugins: [react()],
  test: {
    include: ['src/**/*.test.{ts,tsx}', 'bench/**/*.test.ts'],
    environment: 'node',
    setupFiles: ['src/test-setup.ts'],
    // One PostgreSQL server for the run (D1): the PostgreSQL store and multi-gateway tests use it.
    globalSetup: ['src/testing/postgres-global-setup.ts'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    // expect.poll gives up after 1 s by default: too little on a busy machine. The bound only limits how long a failing
    // check waits; a passing one goes on as soon as it holds.
    expect: { poll: { timeout: 10_000 } },
    pool: 'forks',
    // At least two at once, also on two cores: the multi-gateway files spend most of their time waiting on real
    // clocks (Q7's 30 s), and another file runs meanwhile (the unit phase: 8.5 min in one worker, 5 min in two).
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
});
