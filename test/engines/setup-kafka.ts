import type { TestProject } from 'vitest/node';
import { startForTests } from './engine.ts';
import { installCommand } from './engine-install.ts';
import { startKafka } from './kafka.ts';
import type {} from '@lectern/testing';

/** Vitest global setup: one Kafka broker for the run; each test uses its own topics and groups. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const engine = await startForTests({ name: 'Kafka', installHint: installCommand('kafka'), start: startKafka });
  project.provide('kafkaBrokers', engine.endpoint);
  return engine.stop;
}
