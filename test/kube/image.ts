import { execFile as execFileCb, execFileSync, spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { repoRoot } from '../cluster/service-process.ts';

const execFile = promisify(execFileCb);

/** The Node base image that scripts/lib/containers.sh makes here (no registry to pull from). */
export const lecternNodeBase = process.env['LECTERN_NODE_IMAGE'] ?? 'lectern-node:24.21.0';

/**
 * Everything `scripts/image.sh build` reads, as git pathspecs: the sources, the editor app, the
 * manifests and lockfile, the build scripts (models.sh pins the model's files by sha256).
 */
const imageInputs = [
  'Dockerfile',
  '.dockerignore',
  'package.json',
  'pnpm-lock.yaml',
  'pnpm-workspace.yaml',
  '.npmrc',
  'patches',
  'tsconfig*.json',
  'scripts/image.sh',
  'scripts/image-layout.sh',
  'scripts/lib/models.sh',
  'packages',
  'services',
  'apps/editor',
  ':(glob)test/**/package.json',
];

/** The id of a local image, or null when the daemon has no such image. */
export async function imageId(ref: string): Promise<string | null> {
  try {
    const { stdout } = await execFile('docker', ['image', 'inspect', '--format', '{{.Id}}', ref]);
    return stdout.trim();
  } catch {
    return null;
  }
}

/**
 * A hash of the image's inputs: every tracked or untracked (not ignored) file under
 * `imageInputs`, path and content, and the base image's id. Equal hashes: the same image.
 */
export function imageInputsHash(baseId: string): string {
  const files = execFileSync('git', ['ls-files', '-z', '-co', '--exclude-standard', '--', ...imageInputs], {
    cwd: repoRoot,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  })
    .split('\0')
    .filter((f) => f !== '' && !f.includes('/node_modules/') && !f.includes('/dist/'));
  const hash = createHash('sha256').update(`base ${baseId}\n`);
  for (const file of [...new Set(files)].sort()) {
    const path = join(repoRoot, file);
    if (!existsSync(path)) continue; // deleted in the work tree, not yet in the index
    hash.update(`${file}\0`).update(readFileSync(path)).update('\0');
  }
  return hash.digest('hex').slice(0, 12);
}

/** Runs a command with its output on stderr (long builds show their progress); rejects on failure. */
function run(command: string, args: readonly string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: repoRoot, stdio: ['ignore', process.stderr, process.stderr] });
    child.once('error', reject);
    child.once('exit', (code, signal) =>
      code === 0 ? resolve() : reject(new Error(`${command} ${args.join(' ')} failed (${signal ?? `exit ${code}`})`)),
    );
  });
}

/**
 * Lectern's image on the base made here, tagged `lectern:t-<hash of its inputs>`: an unchanged
 * tree finds the image it built before (seconds); otherwise `scripts/image.sh build` lays out the
 * inputs and builds it (a few minutes). The base must exist (scripts/lib/containers.sh).
 */
export async function ensureLecternImage(): Promise<{ ref: string; id: string }> {
  const baseId = await imageId(lecternNodeBase);
  if (baseId === null) {
    throw new Error(
      `the base image ${lecternNodeBase} is missing; run: bash -c 'source scripts/lib/toolchain.sh; ` +
        `source scripts/lib/engines.sh; source scripts/lib/containers.sh; lectern_toolchain && lectern_containers'`,
    );
  }
  const ref = `lectern:t-${imageInputsHash(baseId)}`;
  const cached = await imageId(ref);
  if (cached !== null) return { ref, id: cached };
  process.stderr.write(`[lectern image] building ${ref} on ${lecternNodeBase} (scripts/image.sh build)\n`);
  await run(join(repoRoot, 'scripts', 'image.sh'), ['build', '-t', ref, '--base', lecternNodeBase]);
  const id = await imageId(ref);
  if (id === null) throw new Error(`scripts/image.sh built no ${ref}`);
  forgetPreviousTag(ref);
  return { ref, id };
}

/**
 * Untags the image this checkout built before (named in .image-context/last-tag), so that a
 * tree edited many times does not pile images up; other checkouts' tags on the same daemon are
 * left alone, and an image a container still uses stays (docker refuses, which is fine).
 */
function forgetPreviousTag(ref: string): void {
  const record = join(repoRoot, '.image-context', 'last-tag');
  const previous = existsSync(record) ? readFileSync(record, 'utf8').trim() : '';
  if (previous !== '' && previous !== ref) spawnSync('docker', ['rmi', previous], { stdio: 'ignore' });
  writeFileSync(record, `${ref}\n`);
}

/** `docker save` of one image into `file` (a tarball containerd's `ctr images import` reads). */
export async function saveImage(ref: string, file: string): Promise<void> {
  await execFile('docker', ['save', '--output', `${file}.partial`, ref]);
  renameSync(`${file}.partial`, file);
}
