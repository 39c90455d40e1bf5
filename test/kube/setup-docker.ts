import { ensureContainerEngine } from '../containers/container-engine.ts';
import type { TestProject } from 'vitest/node';
import { isEngineRequired } from '../engines/engine.ts';
import { ensureLecternImage } from './image.ts';
import type {} from '@lectern/testing';

/**
 * Vitest global setup of the `kube` project: a Docker daemon answering (started when none does),
 * the base images made here (scripts/lib/containers.sh, cached per machine) and Lectern's image
 * of this tree (test/kube/image.ts, cached by the hash of its inputs). Hands the image's
 * reference to the tests as `inject('lecternImage')`. As with the engines, a failure fails the run
 * in CI (CI=true or LECTERN_REQUIRE_ENGINES=true); elsewhere it provides '' and the tests skip, loudly.
 */
export default async function setup(project: TestProject): Promise<void> {
  const began = Date.now();
  try {
    await ensureContainerEngine();
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
