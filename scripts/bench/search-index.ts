// Benchmark (issue 15): the SQL delivery index against the search-engine index, through Delivery
// over HTTP, with the load from other processes. For each item count and index: restores the
// cached seed (scripts/bench/delivery-seed.ts, through core operations; cached per machine as a
// pg_dump) into a fresh PostgreSQL database, times `lectern index rebuild`, starts the cluster
// shape's services (Management, indexer, one Delivery process) on that index, then measures.
// Prints one table per item count; it asserts nothing (CONVENTIONS: benchmarks print tables).
// Run: pnpm run bench:search-index -- [--items 10000,100000] [--seconds 10] …  (--help)
import { execFile as execFileCb } from 'node:child_process';
import { availableParallelism, loadavg } from 'node:os';
import { parseArgs, promisify } from 'node:util';
import { articleCodename, authorCount } from './delivery-content.ts';
import { rssMiB, seedCacheRoot } from './delivery-setup.ts';
import { chooseLoader, type LoaderName } from './load-generator.ts';
import { measureStack } from './search-index-measure.ts';
import { printSize, type RunReport } from './search-index-report.ts';
import {
  cleanUpRun,
  prepareRun,
  startEngines,
  startStack,
  type Engines,
  type IndexKind,
  type Stack,
} from './search-index-stack.ts';

const execFile = promisify(execFileCb);

const usage = `Usage: pnpm run bench:search-index -- [options]   (or node scripts/bench/search-index.ts [options])

Compares the SQL delivery index and the search-engine index (OpenSearch) on the same PostgreSQL
store, through Delivery over HTTP. Starts PostgreSQL, Kafka, MinIO and OpenSearch (the test engine
launchers), then for each item count and index: restores the seeded project (1% authors, the rest
articles with title, rank, summary, an author and the previous article as related; seeded once
through core operations and cached in ${seedCacheRoot}), times \`lectern index rebuild\`, starts
Management, the indexer and one Delivery process (response cache off, rate limits off) and measures
with wrk from a separate process (autocannon when wrk cannot be installed):
  a. a list of 10 articles with rank < n, ordered by rank descending, depth 2 (n walks: a different page each request)
  b. the equality filter elements.title = "Article n", depth 0 (n walks)
  c. /items-feed through every item (its own process)
  d. publish → visible: new version, edit, publish through Management; poll Delivery, then (other
     articles) one Delivery request with X-KC-Wait-For-Loading-New-Content per publish
  e. the index rebuild (above)

  --items N[,N…]       item counts (default 10000,100000)
  --indexes I[,I…]     sql, opensearch (default sql,opensearch)
  --seconds S          measured seconds per load scenario, after a warm-up of a third (1-3 s) (default 10)
  --connections C      connections of the throughput runs (default 8; the latency runs use 1)
  --publishes N        publishes measured per run (default 50)
  --poll-ms M          Delivery poll interval after a publish (default 2)
  --loader L           wrk or autocannon (default: wrk, installed with apt-get on first use)
  --skip-warm-pass     no unmeasured pass over the first item count before the measured runs
                       (by default it warms the engines: OpenSearch's JVM compiles as it goes)
  --help               this text`;

const argv = process.argv.slice(2);
const { values: args } = parseArgs({
  // pnpm run passes a literal "--" before the script's own options.
  args: argv[0] === '--' ? argv.slice(1) : argv,
  options: {
    items: { type: 'string', default: '10000,100000' },
    indexes: { type: 'string', default: 'sql,opensearch' },
    seconds: { type: 'string', default: '10' },
    connections: { type: 'string', default: '8' },
    publishes: { type: 'string', default: '50' },
    'poll-ms': { type: 'string', default: '2' },
    loader: { type: 'string' },
    'skip-warm-pass': { type: 'boolean', default: false },
    help: { type: 'boolean', default: false },
  },
});
if (args.help) {
  console.log(usage);
  process.exit(0);
}
const sizes = args.items.split(',').map(Number);
const indexes = args.indexes.split(',') as IndexKind[];
const seconds = Number(args.seconds);
const connections = Number(args.connections);
const publishes = Number(args.publishes);
const pollMs = Number(args['poll-ms']);
const warmup = Math.min(3, Math.max(1, Math.round(seconds / 3)));
/** Seconds per load scenario in the warm-up pass. */
const warmPassSeconds = 10;
if (
  !sizes.every((n) => Number.isInteger(n) && n >= 200) ||
  !indexes.every((i) => i === 'sql' || i === 'opensearch') ||
  !(seconds >= 1 && Number.isInteger(seconds)) ||
  !(connections >= 1 && Number.isInteger(connections)) ||
  !(publishes >= 1 && Number.isInteger(publishes)) ||
  !(pollMs >= 0) ||
  (args.loader !== undefined && args.loader !== 'wrk' && args.loader !== 'autocannon')
) {
  console.error(`Invalid options (items ≥ 200, whole seconds ≥ 1, connections ≥ 1, publishes ≥ 1).\n\n${usage}`);
  process.exit(2);
}

async function loaderVersion(loader: LoaderName): Promise<string> {
  if (loader === 'autocannon') return 'autocannon';
  const { stdout, stderr } = await execFile('wrk', ['-v']).catch((e: { stdout: string; stderr: string }) => e);
  return /wrk \S+/.exec(`${stdout}${stderr}`)?.[0] ?? 'wrk';
}

/** What to stop when the benchmark is interrupted: the running stack, then the engines. */
const running: { stack: Promise<Stack> | null; engines: Engines | null } = { stack: null, engines: null };
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.once(signal, () => {
    console.error(`\n${signal}: stopping the services and engines`);
    void (async () => {
      // A stack still starting is awaited, so its services are stopped too.
      await (await running.stack?.catch(() => null))?.stop().catch(() => undefined);
      await running.engines?.stop().catch(() => undefined);
      process.exit(130);
    })();
  });

const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');

async function runOne(
  engines: Engines,
  items: number,
  index: IndexKind,
  loader: LoaderName,
  isWarmPass = false,
): Promise<RunReport> {
  console.log(
    `\n== ${items} items, ${index} index${isWarmPass ? ', warm-up pass (not reported)' : ''} (machine load average ${load()})`,
  );
  const prepared = await prepareRun({ engines, items, index });
  console.log(
    `  seed ${prepared.seed.cachedFrom ?? 'made now'}; index rebuild ${prepared.rebuild.seconds.toFixed(1)} s ` +
      `(process start and store open ${prepared.rebuild.baselineSeconds.toFixed(1)} s)`,
  );
  running.stack = startStack({ engines, prepared, index });
  const stack = await running.stack;
  try {
    const projectId = prepared.seed.projectId;
    // The index answers before anything is measured (and Delivery has read its watermark).
    const probe = await fetch(`${stack.deliveryUrl}/${projectId}/items/${articleCodename(0)}`);
    if (probe.status !== 200) throw new Error(`Delivery answered ${probe.status}: ${await probe.text()}`);
    await new Promise((r) => setTimeout(r, 1000));
    const deliveryIdleMiB = rssMiB(stack.deliveryPid);
    const searchIdleMiB = engines.search.pid === undefined ? Number.NaN : rssMiB(engines.search.pid);
    const measured = await measureStack({
      stack,
      projectId,
      articles: items - authorCount(items),
      loader,
      seconds: isWarmPass ? warmPassSeconds : seconds,
      warmup,
      connections,
      publishes: isWarmPass ? Math.min(publishes, 10) : publishes,
      pollMs,
      searchPid: engines.search.pid,
    });
    return { items, index, prepared, measured, deliveryIdleMiB, searchIdleMiB };
  } finally {
    running.stack = null;
    await stack.stop();
    await cleanUpRun(engines, prepared);
  }
}

async function main() {
  const loader = chooseLoader(args.loader as LoaderName | undefined);
  console.log('starting PostgreSQL, Kafka, MinIO and OpenSearch');
  const engines = await startEngines();
  running.engines = engines;
  const all: RunReport[][] = [];
  try {
    // The engines start cold (OpenSearch's JVM compiles as it goes); one unmeasured pass over the
    // first size for every index, so the first measured run is not the one that warms them.
    if (!args['skip-warm-pass'] && sizes[0] !== undefined)
      for (const index of indexes) await runOne(engines, sizes[0], index, loader, true);
    for (const items of sizes) {
      const runs: RunReport[] = [];
      for (const index of indexes) runs.push(await runOne(engines, items, index, loader));
      printSize(items, runs);
      all.push(runs);
    }
  } finally {
    await engines.stop();
  }
  console.log(
    `\n## All results (${await loaderVersion(loader)}, ${seconds} s per load run after ${warmup} s warm-up, ` +
      `c=1 and c=${connections}, ${publishes} publishes, ${args['skip-warm-pass'] ? 'no warm-up pass' : 'after a warm-up pass'}, Node ${process.version}, ${availableParallelism()} CPUs, ` +
      `load average at the end ${load()})`,
  );
  for (const runs of all) printSize(runs[0]?.items ?? 0, runs);
}

await main();
