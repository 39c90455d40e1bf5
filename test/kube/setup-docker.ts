import { execFile as execFileCb } from 'node:child_process';
import { promisify } from 'node:util';
import type { TestProject } from 'vitest/node';
import { repoRoot } from '../cluster/service-process.ts';
import { isEngineRequired } from '../engines/engine.ts';
import { ensureLecternImage } from './image.ts';
import type {} from '@lectern/testing';

const execFile = promisify(execFileCb);

/**
 * Vitest global setup of the `kube` project: a Docker daemon answering (started when none does),
 * the base images made here (scripts/lib/containers.sh, cached per machine) and Lectern's image
 * of this tree (test/kube/image.ts, cached by the hash of its inputs). Hands the image's
 * reference to the tests as `inject('lecternImage')`. As with the engines, a failure fails the run
 * in CI (CI=true or LECTERN_REQUIRE_ENGINES=true); elsewhere it provides '' and the tests skip, loudly.
 */
export default async function setup(project: TestProject): Promise<void> {
  const began = Date.now();
  const script =
    'source scripts/lib/toolchain.sh && source scripts/lib/engines.sh && source scripts/lib/containers.sh && ' +
    'lectern_toolchain >/dev/null && CI=true lectern_containers';
  try {
    await execFile('bash', ['-c', script], { cwd: repoRoot, maxBuffer: 16 * 1024 * 1024 }).catch((error: unknown) => {
      const { stderr } = error as { stderr?: string };
      throw new Error(`the container engine or the base images are not ready (scripts/lib/containers.sh):\n${stderr}`, {
        cause: error,
      });
    });
    const image = await ensureLecternImage();
    process.stderr.write(
      `[kube setup] docker daemon, base images and ${image.ref} ready in ${Math.round((Date.now() - began) / 1000)} s\n`,
    );
    project.provide('lecternImage', image.ref);
  } catch (error) {
    if (isEngineRequired) throw error;
    console.warn(`\n!!! ${(error as Error).message}\n!!! The kube tests are SKIPPED.\n`);
    project.provide('lecternImage', '');
  }
}
