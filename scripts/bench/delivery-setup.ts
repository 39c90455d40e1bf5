// What the Delivery benchmark sets up before it measures: the seeded content (cached per engine,
// item count and seed format), the index rebuild it times, the server under test and the bare
// ceiling server, each in its own process.
import { execFile as execFileCb, spawn, type ChildProcess } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';
import { createTestDatabase } from '../../packages/testing/src/test-database.ts';

const execFile = promisify(execFileCb);
const root = new URL('../..', import.meta.url).pathname;
const cli = join(root, 'services/lectern/src/cli.ts');

export type Engine = 'pglite' | 'postgres';

/** Bump when the seeded content changes shape: older caches are then ignored. */
const seedFormat = 1;
export const seedCacheRoot = process.env['LECTERN_BENCH_CACHE'] ?? join(homedir(), '.cache', 'lectern-bench');

/** The cache directory of one engine's seed of `items` items. */
export function seedCacheEntry(engine: Engine, items: number): string {
  return join(seedCacheRoot, `${engine}-${items}-v${seedFormat}`);
}

export interface Seeded {
  readonly dataDir: string;
  readonly databaseUrl: string | undefined;
  readonly projectId: string;
  /** The cache entry used, or null when this run seeded (and then cached) the content. */
  readonly cachedFrom: string | null;
  /** Seconds the seeding process took when the content was created. */
  readonly seedSeconds: number;
  /** Seconds to copy or restore the cached seed (0 when seeded now). */
  readonly restoreSeconds: number;
}

/** The newest PostgreSQL client tools beside the server the test engines run. */
export function postgresTool(name: string): string {
  const versions = readdirSync('/usr/lib/postgresql').filter((v) => /^\d+$/.test(v));
  versions.sort((a, b) => Number(b) - Number(a));
  for (const v of versions)
    if (existsSync(`/usr/lib/postgresql/${v}/bin/${name}`)) return `/usr/lib/postgresql/${v}/bin/${name}`;
  return name;
}

function runSeeder(items: number, target: string[]): Promise<{ projectId: string; seconds: number }> {
  const out = join(mkdtempSync(join(tmpdir(), 'lectern-bench-seed-')), 'seed.json');
  const child = spawn(
    process.execPath,
    [join(root, 'scripts/bench/delivery-seed.ts'), '--items', String(items), ...target, '--out', out],
    {
      stdio: ['ignore', 'inherit', 'inherit'],
    },
  );
  return new Promise((resolve, reject) =>
    child.once('exit', (code) =>
      code === 0
        ? resolve(JSON.parse(readFileSync(out, 'utf8')) as { projectId: string; seconds: number })
        : reject(new Error(`seeding failed (exit ${code})`)),
    ),
  );
}

/**
 * A data directory (and, for PostgreSQL, a fresh database on `postgresAdminUrl`) holding the
 * benchmark project of `items` items: restored from the cache when there, else seeded through core
 * operations in a child process and then cached (PGlite: a copy of its data directory; PostgreSQL:
 * a pg_dump custom-format file).
 */
export async function prepareSeed(options: {
  engine: Engine;
  items: number;
  postgresAdminUrl?: string;
}): Promise<Seeded> {
  const entry = seedCacheEntry(options.engine, options.items);
  const dataDir = mkdtempSync(join(tmpdir(), 'lectern-bench-data-'));
  const databaseUrl =
    options.engine === 'postgres' ? await createTestDatabase(options.postgresAdminUrl ?? '') : undefined;
  const info = join(entry, 'seed.json');
  if (existsSync(info)) {
    const seed = JSON.parse(readFileSync(info, 'utf8')) as { projectId: string; seconds: number };
    const started = performance.now();
    if (databaseUrl === undefined) cpSync(join(entry, 'pglite'), join(dataDir, 'pglite'), { recursive: true });
    else
      await execFile(postgresTool('pg_restore'), [
        '--no-owner',
        '--no-acl',
        '-j',
        '2',
        '-d',
        databaseUrl,
        join(entry, 'seed.dump'),
      ]);
    return {
      dataDir,
      databaseUrl,
      projectId: seed.projectId,
      cachedFrom: entry,
      seedSeconds: seed.seconds,
      restoreSeconds: (performance.now() - started) / 1000,
    };
  }
  console.log(
    `  seeding ${options.items} items on ${options.engine} through core operations (cached afterwards in ${entry})`,
  );
  const seed = await runSeeder(
    options.items,
    databaseUrl === undefined ? ['--data-dir', dataDir] : ['--database-url', databaseUrl],
  );
  const staging = `${entry}.partial-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  if (databaseUrl === undefined) cpSync(join(dataDir, 'pglite'), join(staging, 'pglite'), { recursive: true });
  else await execFile(postgresTool('pg_dump'), ['-Fc', '-f', join(staging, 'seed.dump'), databaseUrl]);
  writeFileSync(
    join(staging, 'seed.json'),
    JSON.stringify({ ...seed, items: options.items, createdAt: new Date().toISOString() }),
  );
  rmSync(entry, { recursive: true, force: true });
  renameSync(staging, entry);
  return {
    dataDir,
    databaseUrl,
    projectId: seed.projectId,
    cachedFrom: null,
    seedSeconds: seed.seconds,
    restoreSeconds: 0,
  };
}

const target = (seed: Seeded) => [
  '--data-dir',
  seed.dataDir,
  ...(seed.databaseUrl === undefined ? [] : ['--database-url', seed.databaseUrl]),
];

export interface IndexTiming {
  /** Wall time of `lectern index rebuild --project …`, in seconds. */
  readonly rebuildSeconds: number;
  /** Wall time of `lectern project list` on the same content: process start and store open. */
  readonly baselineSeconds: number;
}

/**
 * Times `lectern index rebuild --project …` on the seeded content, and `lectern project list` on
 * it as the baseline of starting the process and opening the store, so the difference is the
 * indexing itself.
 */
export async function timeIndexRebuild(seed: Seeded): Promise<IndexTiming> {
  const time = async (args: string[]) => {
    const started = performance.now();
    await execFile(process.execPath, [cli, ...args, ...target(seed)], { maxBuffer: 16 * 1024 * 1024 });
    return (performance.now() - started) / 1000;
  };
  const baselineSeconds = await time(['project', 'list']);
  const rebuildSeconds = await time(['index', 'rebuild', '--project', seed.projectId, '--no-progress']);
  // A restored or freshly written PostgreSQL database has no planner statistics until autovacuum
  // gets to it; a server that has run a while has them, so the benchmark reads with them.
  if (seed.databaseUrl !== undefined) await execFile(postgresTool('psql'), ['-q', '-c', 'ANALYZE', seed.databaseUrl]);
  return { rebuildSeconds, baselineSeconds };
}

export interface ServerProcess {
  readonly pid: number;
  /** `lectern start`'s supervising parent process, when there is one. */
  readonly supervisorPid?: number;
  readonly url: string;
  /** Every listener's URL by name (`lectern start` only). */
  readonly urls?: Readonly<Record<string, string>>;
  stop(): Promise<void>;
}

function stopper(child: ChildProcess): () => Promise<void> {
  return async () => {
    if (child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  };
}

/**
 * `lectern start` in its own process on the seeded content: free ports, no demo, `env` added; with
 * `cpuProfileDir`, Node writes a CPU profile (`.cpuprofile`, for Chrome DevTools) there at exit.
 */
export async function startLectern(
  seed: Seeded,
  env: Record<string, string>,
  options: { readonly cpuProfileDir?: string } = {},
): Promise<ServerProcess> {
  // NODE_OPTIONS reaches the supervised server process too (a flag before the script would not).
  const profile =
    options.cpuProfileDir === undefined ? {} : { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${options.cpuProfileDir}` };
  const child = spawn(process.execPath, [cli, 'start', '--json', '--port-base', '0', '--no-demo', ...target(seed)], {
    env: { ...process.env, LECTERN_DEMO: 'false', LECTERN_LOG_LEVEL: 'warn', ...env, ...profile },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  const urls = await new Promise<Record<string, string>>((resolve, reject) => {
    lines.on('line', (line) => {
      if (line.startsWith('{"data_dir"')) resolve((JSON.parse(line) as { urls: Record<string, string> }).urls);
    });
    child.once('exit', (code) => reject(new Error(`lectern start exited (${code}) before it was ready`)));
  });
  const stop = stopper(child);
  let isStopping = false;
  child.once('exit', (code, signal) => {
    if (!isStopping)
      console.error(`\n  !!! lectern start (pid ${child.pid}) ended during the benchmark: exit ${code ?? signal}`);
  });
  // `lectern start` runs the server in a supervised child process (services/lectern/src/cli.ts):
  // its RSS, not the small supervisor's, is the server's. server.json names it.
  const info = JSON.parse(readFileSync(join(seed.dataDir, 'server.json'), 'utf8')) as { pid?: number };
  return {
    pid: info.pid ?? (child.pid as number),
    ...(info.pid === undefined || child.pid === undefined ? {} : { supervisorPid: child.pid }),
    url: urls['delivery'] as string,
    urls,
    stop: () => {
      isStopping = true;
      return stop();
    },
  };
}

/** The bare node:http server answering /item and /list with the given bodies. */
export async function startBare(bodies: { item: Buffer; list: Buffer }): Promise<ServerProcess> {
  const dir = mkdtempSync(join(tmpdir(), 'lectern-bench-bare-'));
  writeFileSync(join(dir, 'item.json'), bodies.item);
  writeFileSync(join(dir, 'list.json'), bodies.list);
  const child = spawn(
    process.execPath,
    [join(root, 'scripts/bench/bare-server.ts'), join(dir, 'item.json'), join(dir, 'list.json')],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  const url = await new Promise<string>((resolve, reject) => {
    lines.once('line', resolve);
    child.once('exit', (code) => reject(new Error(`the bare server exited (${code})`)));
  });
  return { pid: child.pid as number, url, stop: stopper(child) };
}

/** A size in kB that `pattern` finds in a /proc file, in MiB, or NaN (the process has ended). */
function procMiB(file: string, pattern: RegExp): number {
  try {
    const match = pattern.exec(readFileSync(file, 'utf8'));
    return match?.[1] === undefined ? Number.NaN : Number(match[1]) / 1024;
  } catch {
    return Number.NaN;
  }
}

/** Proportional set size of a process in MiB: pages it shares with others (Node's binary) count in part. */
export const pssMiB = (pid: number): number => procMiB(`/proc/${pid}/smaps_rollup`, /^Pss:\s+(\d+) kB/m);

/** Resident set size of a process in MiB (Linux /proc), or NaN. */
export const rssMiB = (pid: number): number => procMiB(`/proc/${pid}/status`, /VmRSS:\s+(\d+) kB/);

/** Samples a process's RSS every 100 ms until stopped; resolves with the largest seen. */
export function sampleRss(pid: number): { stop(): number } {
  let peak = rssMiB(pid);
  const timer = setInterval(() => (peak = Math.max(peak, rssMiB(pid))), 100);
  return {
    stop() {
      clearInterval(timer);
      return Math.max(peak, rssMiB(pid));
    },
  };
}

/** Waits until the server's outbox relay and delivery index have nothing left to do (from /metrics). */
export async function waitUntilSettled(url: string, timeoutSeconds: number): Promise<void> {
  const deadline = Date.now() + timeoutSeconds * 1000;
  const gauge = (text: string, name: string) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1] ?? 'NaN');
  for (;;) {
    const text = await (await fetch(`${url}/metrics`)).text();
    const relay = gauge(text, 'lectern_outbox_relay_lag_events');
    const index = gauge(text, 'lectern_index_watermark_lag_events');
    if (relay === 0 && index === 0) return;
    if (Date.now() > deadline) throw new Error(`the server did not settle: relay lag ${relay}, index lag ${index}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}
