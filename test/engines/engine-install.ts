import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Installation of the engines that do not come from Debian's packages: Kafka and OpenSearch as
 * Maven classpaths (jars in ~/.m2, the resolved classpath cached here), MinIO built from source
 * with `go install`. Everything is cached per machine, outside the repository, so only the first
 * run on a machine pays for it. Every step is idempotent: it checks first and does nothing when
 * the cached result is complete.
 */

const here = dirname(fileURLToPath(import.meta.url));

/** The engines this module installs, by the name used on the command line and in messages. */
export const installableEngines = ['kafka', 'opensearch', 'minio'] as const;
export type InstallableEngine = (typeof installableEngines)[number];

/** The MinIO build, pinned. The Go module proxy serves MinIO only as pseudo-versions of commits. */
export const minioModule = 'github.com/minio/minio';
export const minioVersion = 'v0.0.0-20260212201848-7aac2a2c5b7c';

/** Per-machine cache of built binaries and resolved classpaths. */
export function engineCacheDir(): string {
  return process.env['LECTERN_ENGINES_CACHE'] ?? join(homedir(), '.cache', 'lectern-engines');
}

/** The command that installs one engine, for "not installed" messages. */
export function installCommand(engine: InstallableEngine): string {
  return `node test/engines/install.ts ${engine}   (or ./scripts/test, which installs every engine)`;
}

/** Where the Maven project of an engine lives; its content keys the cached classpath. */
function pomOf(engine: 'kafka' | 'opensearch'): string {
  return join(here, 'maven', engine, 'pom.xml');
}

function classpathFile(engine: 'kafka' | 'opensearch'): string {
  const hash = createHash('sha256')
    .update(readFileSync(pomOf(engine)))
    .digest('hex')
    .slice(0, 12);
  return join(engineCacheDir(), `${engine}-${hash}`, 'classpath.txt');
}

/**
 * The resolved runtime classpath of a Maven-installed engine, or undefined when it is not installed
 * (no cached classpath for this pom, or a jar it names has gone from ~/.m2).
 */
export function installedClasspath(engine: 'kafka' | 'opensearch'): string | undefined {
  const file = classpathFile(engine);
  if (!existsSync(file)) return undefined;
  const classpath = readFileSync(file, 'utf8').trim();
  const jars = classpath.split(delimiter).filter(Boolean);
  return jars.length > 0 && jars.every((jar) => existsSync(jar)) ? classpath : undefined;
}

/** The MinIO server binary, or undefined when it has not been built on this machine. */
export function installedMinio(): string | undefined {
  const binary = join(engineCacheDir(), `minio-${minioVersion}`, 'minio');
  return existsSync(binary) ? binary : undefined;
}

/** Installs one engine unless it is already installed. Prints progress; throws on failure. */
export async function installEngine(engine: InstallableEngine): Promise<void> {
  if (engine === 'minio') return installMinio();
  return installMaven(engine);
}

async function installMaven(engine: 'kafka' | 'opensearch'): Promise<void> {
  if (installedClasspath(engine)) {
    log(`${engine}: installed (classpath cached in ${dirname(classpathFile(engine))})`);
    return;
  }
  requireCommand('java', 'apt-get install -y openjdk-17-jre-headless');
  requireCommand('mvn', 'apt-get install -y maven');
  const target = classpathFile(engine);
  mkdirSync(dirname(target), { recursive: true });
  const partial = `${target}.partial`;
  log(`${engine}: resolving Maven artefacts of ${pomOf(engine)} into ~/.m2 (first run on a machine downloads them)`);
  await run('mvn', [
    '-B',
    '--no-transfer-progress',
    '-Dstyle.color=never',
    '-q',
    '-f',
    pomOf(engine),
    'dependency:build-classpath',
    '-Dmdep.includeScope=runtime',
    `-Dmdep.outputFile=${partial}`,
  ]);
  writeFileSync(partial, unpackZips(readFileSync(partial, 'utf8'), join(dirname(target), 'unpacked')));
  renameSync(partial, target);
  if (!installedClasspath(engine)) throw new Error(`${engine}: Maven resolved an incomplete classpath (${target})`);
  log(`${engine}: installed`);
}

/**
 * A classpath with every `.zip` entry (a plugin distribution, e.g. OpenSearch's k-NN plugin)
 * replaced by the jars inside it, unpacked under `into`; jars already on the classpath by file
 * name are not added twice.
 */
function unpackZips(classpath: string, into: string): string {
  const entries = classpath.trim().split(delimiter).filter(Boolean);
  const jars = entries.filter((e) => !e.endsWith('.zip'));
  const names = new Set(jars.map((j) => basename(j)));
  for (const zip of entries.filter((e) => e.endsWith('.zip'))) {
    const dir = join(into, basename(zip, '.zip'));
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    // The JDK's jar tool (the engines need the JDK anyway) reads any zip.
    const unpack = spawnSync('jar', ['xf', zip], { cwd: dir, encoding: 'utf8' });
    if (unpack.status !== 0) throw new Error(`cannot unpack ${zip}: ${unpack.stderr || unpack.error?.message}`);
    for (const jar of readdirSync(dir).filter((f) => f.endsWith('.jar'))) {
      if (!names.has(jar)) jars.push(join(dir, jar));
      names.add(jar);
    }
  }
  return jars.join(delimiter);
}

async function installMinio(): Promise<void> {
  if (installedMinio()) {
    log(`minio: installed (${installedMinio()})`);
    return;
  }
  requireCommand('go', 'Go 1.24 or newer (the polyglot machine has it in /usr/local/go)');
  const final = join(engineCacheDir(), `minio-${minioVersion}`);
  const partial = `${final}.partial`;
  rmSync(partial, { recursive: true, force: true });
  mkdirSync(partial, { recursive: true });
  log(`minio: go install ${minioModule}@${minioVersion} (cold: 4 to 15 minutes on 2 cores; Go caches the build)`);
  // Without the symbol table and debug information: a faster link and a smaller binary.
  await run('go', ['install', '-trimpath', '-ldflags=-s -w', `${minioModule}@${minioVersion}`], { GOBIN: partial });
  rmSync(final, { recursive: true, force: true });
  renameSync(partial, final);
  log(`minio: installed (${installedMinio()})`);
}

function requireCommand(command: string, hint: string): void {
  const found = spawnSync('sh', ['-c', `command -v ${command}`], { encoding: 'utf8' });
  if (found.status !== 0) throw new Error(`${command} is not on PATH; install it: ${hint}`);
}

/** Runs a long step with its output passed through and a heartbeat every 30 s. */
async function run(command: string, args: readonly string[], env: Record<string, string> = {}): Promise<void> {
  const began = Date.now();
  const heartbeat = setInterval(() => log(`  ... ${command} still running (${elapsed(began)})`), 30_000);
  try {
    await new Promise<void>((resolve, reject) => {
      const child = spawn(command, args, { stdio: ['ignore', 'inherit', 'inherit'], env: { ...process.env, ...env } });
      child.once('error', reject);
      child.once('exit', (code, signal) =>
        code === 0 ? resolve() : reject(new Error(`${command} ${args.join(' ')} failed (${signal ?? `exit ${code}`})`)),
      );
    });
  } finally {
    clearInterval(heartbeat);
  }
  log(`  ${command} done in ${elapsed(began)}`);
}

function elapsed(since: number): string {
  return `${Math.round((Date.now() - since) / 1000)} s`;
}

function log(line: string): void {
  console.log(`[engines] ${line}`);
}
