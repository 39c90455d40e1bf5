import type { TestProject } from 'vitest/node';
import { startForTests } from './engine.ts';
import { startPostgres } from './postgres.ts';
import type {} from '@lectern/testing';

/** Vitest global setup: one PostgreSQL server for the run; each test file makes its own database. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const engine = await startForTests({
    name: 'PostgreSQL',
    installHint: 'apt-get install -y postgresql (or run ./scripts/test, which does it)',
    start: startPostgres,
  });
  project.provide('postgresUrl', engine.endpoint);
  return engine.stop;
}
