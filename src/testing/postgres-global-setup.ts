import type { TestProject } from 'vitest/node';
import { startThrowawayPostgres } from './postgres-server.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresUrl: string;
  }
}

/**
 * One PostgreSQL for the whole test run: ASKDOCK_TEST_POSTGRES_URL when given, else a throwaway server started here and
 * stopped when the run ends, whether its tests passed or not. Each test then works in a schema of its own.
 */
export default async function setup(project: TestProject): Promise<(() => void) | undefined> {
  const given = process.env.ASKDOCK_TEST_POSTGRES_URL;
  if (given) {
    project.provide('postgresUrl', given);
    return undefined;
  }
  const server = await startThrowawayPostgres();
  const stop = () => server.stop();
  // Also when the run is interrupted before teardown.
  process.once('exit', stop);
  project.provide('postgresUrl', server.url);
  return () => {
    process.off('exit', stop);
    stop();
  };
}
