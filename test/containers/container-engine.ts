import { execFile as execFileCb } from 'node:child_process';
import { promisify } from 'node:util';
import { repoRoot } from '../cluster/service-process.ts';

const execFile = promisify(execFileCb);

/**
 * A Docker daemon answering (started when none does) and the base images made here
 * (scripts/lib/containers.sh, cached per machine): what the `containers` and `kube` projects'
 * global set-ups need first. Rejects with the script's own output when it fails.
 */
export async function ensureContainerEngine(): Promise<void> {
  const script =
    'source scripts/lib/toolchain.sh && source scripts/lib/engines.sh && source scripts/lib/containers.sh && ' +
    'lectern_toolchain >/dev/null && CI=true lectern_containers';
  await execFile('bash', ['-c', script], { cwd: repoRoot, maxBuffer: 16 * 1024 * 1024 }).catch((error: unknown) => {
    const { stderr } = error as { stderr?: string };
    throw new Error(`the container engine or the base images are not ready (scripts/lib/containers.sh):\n${stderr}`, {
      cause: error,
    });
  });
}
