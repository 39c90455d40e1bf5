import { execFile as execFileCb } from 'node:child_process';
import { promisify } from 'node:util';
import { repoRoot } from '../cluster/service-process.ts';
import { isEngineRequired } from '../engines/engine.ts';
import { ensureImage } from './engine-images.ts';

const execFile = promisify(execFileCb);

/**
 * Vitest global setup of the `containers` project: a Docker daemon answering (started when none
 * does) and the base image made here (scripts/lib/containers.sh, cached per machine), then the four
 * engine images (engine-images.ts, cached by the hash of their inputs; built under `nice -n 19`).
 * A failure fails the run in CI (CI=true or LECTERN_REQUIRE_ENGINES=true); elsewhere the tests
 * skip, loudly (faults.containers.test.ts checks again and says why).
 */
export default async function setup(): Promise<void> {
  // The fault tests run only with LECTERN_FAULTS=1 (faults.containers.test.ts): build nothing otherwise.
  if (process.env['LECTERN_FAULTS'] !== '1') return;
  const began = Date.now();
  const script =
    'source scripts/lib/toolchain.sh && source scripts/lib/engines.sh && source scripts/lib/containers.sh && ' +
    'lectern_toolchain >/dev/null && CI=true lectern_containers';
  try {
    await execFile('bash', ['-c', script], { cwd: repoRoot, maxBuffer: 16 * 1024 * 1024 }).catch((error: unknown) => {
      const { stderr } = error as { stderr?: string };
      throw new Error(`the container engine or the base image is not ready (scripts/lib/containers.sh):\n${stderr}`, {
        cause: error,
      });
    });
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
