import { ensureContainerEngine } from './container-engine.ts';
import { isEngineRequired } from '../engines/engine.ts';
import { ensureImage } from './engine-images.ts';

/**
 * Vitest global setup of the `containers` project: a Docker daemon answering (started when none
 * does) and the base image made here (scripts/lib/containers.sh, cached per machine), then the four
 * engine images (engine-images.ts, cached by the hash of their inputs; built under `nice -n 19`).
 * A failure fails the run in CI (CI=true or LECTERN_REQUIRE_ENGINES=true); elsewhere the tests
 * skip, loudly (faults.containers.test.ts checks again and says why).
 */
export default async function setup(): Promise<void> {
  const began = Date.now();
  try {
    await ensureContainerEngine();
    const images = await Promise.all([
      ensureImage('postgres'),
      ensureImage('kafka'),
      ensureImage('opensearch'),
      ensureImage('minio'),
    ]);
    process.stderr.write(
      `[containers setup] ${images.join(', ')} ready in ${Math.round((Date.now() - began) / 1000)} s\n`,
    );
  } catch (error) {
    if (isEngineRequired) throw error;
    console.warn(`\n!!! ${(error as Error).message}\n!!! The fault tests are SKIPPED.\n`);
  }
}
