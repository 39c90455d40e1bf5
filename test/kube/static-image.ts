import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';

/**
 * Writes a one-layer image holding static binaries, as a `docker save` tarball (manifest.json,
 * the config, the layer) that `ctr images import` and `docker load` both read. For the sandbox
 * (pause) image and test workloads: no base image, no registry, no docker daemon needed.
 */
export function staticImageTarball(options: {
  /** Repository and tag, e.g. `lectern.local/pause:1`. */
  ref: string;
  /** Host paths of the binaries; each lands at /<its file name> in the image. */
  binaries: readonly string[];
  entrypoint: readonly string[];
  env?: readonly string[];
  /** Numeric user to run as (default 65534, nobody). */
  user?: string;
  out: string;
}): string {
  const work = mkdtempSync(join(tmpdir(), 'lectern-image-'));
  try {
    const root = join(work, 'root');
    mkdirSync(join(root, 'tmp'), { recursive: true, mode: 0o1777 });
    for (const binary of options.binaries) copyFileSync(binary, join(root, basename(binary)));
    const layer = join(work, 'layer.tar');
    execFileSync('tar', [
      '-C',
      root,
      '--owner=0',
      '--group=0',
      '--numeric-owner',
      '--mtime=@0',
      '--sort=name',
      '-cf',
      layer,
      '.',
    ]);
    const diffId = `sha256:${createHash('sha256').update(readFileSync(layer)).digest('hex')}`;
    const config = JSON.stringify({
      architecture: 'amd64',
      os: 'linux',
      config: {
        Entrypoint: options.entrypoint,
        Env: options.env ?? [],
        User: options.user ?? '65534',
        WorkingDir: '/',
      },
      rootfs: { type: 'layers', diff_ids: [diffId] },
      history: [{ created_by: 'lectern test/kube/image.ts' }],
    });
    const configName = `${createHash('sha256').update(config).digest('hex')}.json`;
    writeFileSync(join(work, configName), config);
    writeFileSync(
      join(work, 'manifest.json'),
      JSON.stringify([{ Config: configName, RepoTags: [options.ref], Layers: ['layer.tar'] }]),
    );
    execFileSync('tar', ['-C', work, '-cf', options.out, 'manifest.json', configName, 'layer.tar']);
    return options.out;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
