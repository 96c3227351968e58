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
    pool: 'forks',
  },
});
