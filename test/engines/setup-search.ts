import type { TestProject } from 'vitest/node';
import { startForTests } from './engine.ts';
import { installCommand } from './engine-install.ts';
import { startOpenSearch } from './opensearch.ts';
import type {} from '@lectern/testing';

/** Vitest global setup: one OpenSearch node for the run; each test uses its own indices. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const engine = await startForTests({
    name: 'OpenSearch',
    installHint: installCommand('opensearch'),
    start: startOpenSearch,
  });
  project.provide('searchUrl', engine.endpoint);
  return engine.stop;
}
