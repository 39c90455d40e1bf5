// Delivery API benchmark. For each engine and item count: seeds the content through core
// operations (cached per machine), times `lectern index rebuild`, starts `lectern start` in its own
// process and a bare node:http server with the same bytes (the ceiling), then drives load with wrk
// (or autocannon) from separate processes. Prints one table per engine and size and the ratios
// issue 11 judges; it asserts nothing (CONVENTIONS: benchmarks are scripts that print tables).
// Run: pnpm run bench:delivery -- [--items 10000,100000] [--engines pglite,postgres] [--seconds 10]
import { execFile as execFileCb } from 'node:child_process';
import { rmSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { parseArgs, promisify } from 'node:util';
import type { RunningEngine } from '../../test/engines/engine.ts';
import { startPostgres } from '../../test/engines/postgres.ts';
import { articleCodename, authorCount } from './delivery-content.ts';
import { printRun, printSummary, type Row, type RunReport } from './delivery-report.ts';
import {
  prepareSeed,
  rssMiB,
  sampleRss,
  seedCacheRoot,
  startBare,
  startLectern,
  timeIndexRebuild,
  waitUntilSettled,
  type Engine,
  type ServerProcess,
} from './delivery-setup.ts';
import { chooseLoader, runLoad, type LoaderName, type LoadSpec } from './load-generator.ts';

const execFile = promisify(execFileCb);

const usage = `Usage: pnpm run bench:delivery -- [options]   (or node scripts/bench/delivery.ts [options])

For each engine and item count: seeds a project (1% authors, the rest articles with title, rank,
summary, an author and the previous article as related) through core operations, cached in
${seedCacheRoot}; times \`lectern index rebuild\`; starts \`lectern start\` in its own process
(rate limits off) and a bare node:http server returning the same bytes (the ceiling); then measures
each scenario with wrk from a separate process (autocannon when wrk cannot be installed).

  --items N[,N…]        item counts, each runs every scenario (default 10000)
  --engines E[,E…]      pglite, postgres (default pglite)
  --seconds S           measured seconds per scenario, after a warm-up of a third of it (1-3 s) (default 10)
  --connections C       connections of the cache-hit and item-miss scenarios (default 16; latency ones use 1)
  --miss-connections C[,C…]  connections of the list and equality misses (default 1,8)
  --cpu-prof DIR        the server writes a Node CPU profile of the whole run to DIR (open it in DevTools)
  --scenarios S[,S…]    only these scenarios, by their name before the comma (e.g. "list depth 1,equality filter")
  --loader L            wrk or autocannon (default: wrk, installed with apt-get on first use)
  --help                this text`;

const argv = process.argv.slice(2);
const { values: args } = parseArgs({
  // pnpm run passes a literal "--" before the script's own options.
  args: argv[0] === '--' ? argv.slice(1) : argv,
  options: {
    items: { type: 'string', default: '10000' },
    engines: { type: 'string', default: 'pglite' },
    seconds: { type: 'string', default: '10' },
    connections: { type: 'string', default: '16' },
    'miss-connections': { type: 'string', default: '1,8' },
    'cpu-prof': { type: 'string' },
    scenarios: { type: 'string' },
    loader: { type: 'string' },
    help: { type: 'boolean', default: false },
  },
});
if (args.help) {
  console.log(usage);
  process.exit(0);
}
const sizes = args.items.split(',').map(Number);
const engines = args.engines.split(',') as Engine[];
const seconds = Number(args.seconds);
const connections = Number(args.connections);
const missConnections = args['miss-connections'].split(',').map(Number);
const allScenarios = ['bare node:http', 'one item', 'list depth 1', 'list depth 2', 'equality filter'];
const scenarios = new Set(args.scenarios === undefined ? allScenarios : args.scenarios.split(',').map((x) => x.trim()));
const warmup = Math.min(3, Math.max(1, Math.round(seconds / 3)));
if (
  !sizes.every((n) => Number.isInteger(n) && n >= 200) ||
  !engines.every((e) => e === 'pglite' || e === 'postgres') ||
  !(seconds >= 1 && Number.isInteger(seconds)) ||
  !(connections >= 1 && Number.isInteger(connections)) ||
  !missConnections.every((c) => c >= 1 && Number.isInteger(c)) ||
  ![...scenarios].every((x) => allScenarios.includes(x)) ||
  (args.loader !== undefined && args.loader !== 'wrk' && args.loader !== 'autocannon')
) {
  console.error(`Invalid options (items ≥ 200, whole seconds ≥ 1, connections ≥ 1).\n\n${usage}`);
  process.exit(2);
}

async function loaderVersion(loader: LoaderName): Promise<string> {
  if (loader === 'autocannon') return 'autocannon 9.0.0';
  const { stdout, stderr } = await execFile('wrk', ['-v']).catch((e: { stdout: string; stderr: string }) => e);
  return /wrk \S+/.exec(`${stdout}${stderr}`)?.[0] ?? 'wrk';
}

/** Measures one engine and size: seed, index, serve, load. */
async function runOne(
  engine: Engine,
  items: number,
  loader: LoaderName,
  postgres: RunningEngine | null,
): Promise<RunReport> {
  console.log(`\n== ${engine}, ${items} items`);
  const seed = await prepareSeed({ engine, items, ...(postgres ? { postgresAdminUrl: postgres.endpoint } : {}) });
  console.log(
    seed.cachedFrom === null
      ? `  seeded in ${seed.seedSeconds.toFixed(0)} s (${(items / seed.seedSeconds).toFixed(0)} items/s)`
      : `  cached seed ${seed.cachedFrom} (seeded once in ${seed.seedSeconds.toFixed(0)} s), restored in ${seed.restoreSeconds.toFixed(1)} s`,
  );
  const index = await timeIndexRebuild(seed);
  console.log(
    `  lectern index rebuild: ${index.rebuildSeconds.toFixed(1)} s (process start and store open ${index.baselineSeconds.toFixed(1)} s)`,
  );

  const articles = items - authorCount(items);
  // Smaller than every walk, so a walk never comes back to an answer the cache still holds.
  const cacheEntries = Math.min(5000, Math.floor(articles / 2));
  const closers: (() => Promise<void>)[] = [];
  try {
    const server = await startLectern(
      seed,
      {
        LECTERN_DELIVERY_UNCACHED_PER_SECOND: '0',
        LECTERN_DELIVERY_UNCACHED_PER_MINUTE: '0',
        LECTERN_DELIVERY_CACHE_ENTRIES: String(cacheEntries),
      },
      args['cpu-prof'] === undefined ? {} : { cpuProfileDir: args['cpu-prof'] },
    );
    closers.push(server.stop);
    await waitUntilSettled(server.url, 600);
    await new Promise((r) => setTimeout(r, 1000));
    const rssIdle = rssMiB(server.pid);

    const p = seed.projectId;
    // rank < n by rank desc: the 10 articles just below n, so every n reads a different page
    // (a lower bound, rank ≥ n, would return the same top 10 for almost every n).
    const listOf = (below: string, depth: number) =>
      `/${p}/items?system.type=article&elements.rank%5Blt%5D=${below}&order=elements.rank%5Bdesc%5D&limit=10&depth=${depth}`;
    const mid = Math.floor(articles / 2);
    const itemPath = `/${p}/items/${articleCodename(mid)}`;
    const listPath = listOf(String(mid), 1);
    const fetchBody = async (path: string) => {
      const response = await fetch(`${server.url}${path}`);
      const body = Buffer.from(await response.arrayBuffer());
      if (response.status !== 200) throw new Error(`GET ${path}: ${response.status} ${body.toString()}`);
      return { body, cache: response.headers.get('x-cache') };
    };
    // A first answer, retried for a minute: on a loaded machine the embedded server answered 404
    // "project not found" for a while after it said it was ready (printed when it happens).
    const firstBody = async (path: string) => {
      for (let tries = 0; ; tries += 1) {
        try {
          return await fetchBody(path);
        } catch (error) {
          if (tries >= 30) throw error;
          console.log(`  !!! ${(error as Error).message.slice(0, 160)}; retrying in 2 s`);
          await new Promise((r) => setTimeout(r, 2000));
        }
      }
    };
    const bodies = { item: (await firstBody(itemPath)).body, list: (await firstBody(listPath)).body };
    const bare = await startBare(bodies);
    closers.push(bare.stop);

    const rows: Row[] = [];
    const offsets = new Map<string, number>();
    const measure = async (
      name: string,
      target: ServerProcess,
      spec: Omit<LoadSpec, 'baseUrl' | 'seconds' | 'offset'>,
    ) => {
      if (!scenarios.has(name.split(',')[0] ?? '')) return;
      process.stdout.write(`  ${name}, c=${spec.connections} …`);
      // Walks start just past the URLs of the hit scenarios, so they reach them last, long evicted.
      const offset = offsets.get(spec.template) ?? mid + 1;
      const warm = await runLoad(loader, { ...spec, baseUrl: target.url, seconds: warmup, offset });
      const rss = sampleRss(target.pid);
      const result = await runLoad(loader, { ...spec, baseUrl: target.url, seconds, offset: warm.nextOffset });
      const peak = rss.stop();
      offsets.set(spec.template, result.nextOffset);
      // Walks count x-cache per answer; a fixed URL must be answered from the cache (checked by a
      // sample; the bare server sends no x-cache).
      const sample = result.hits === null && target === server ? (await fetchBody(spec.template)).cache : null;
      const cache =
        result.hits !== null && target === server
          ? `${result.misses} MISS + ${result.hits} HIT of ${result.requests}`
          : sample === null
            ? ''
            : `sample ${sample}`;
      process.stdout.write(` ${result.requestsPerSecond.toFixed(0)} req/s\n`);
      rows.push({ name, connections: spec.connections, result, rssMiB: peak, cache });
    };
    const fixed = (template: string, c: number) => ({ template, count: 0, width: 0, connections: c });
    const itemWalk = {
      template: `/${p}/items/article_{n}`,
      count: articles,
      width: 6,
      expect: [{ text: '"item":{"system":' }, { text: '"codename":"article_' }],
    };
    // n from 10, so each page is full; depth ≥ 1 must bring linked items.
    const listWalk = (depth: number) => ({
      template: listOf('{n}', depth),
      start: 10,
      count: articles - 10,
      width: 0,
      expect: [
        { text: '"pagination":{"skip":0,"limit":10,"count":10,' },
        { text: '"system":{', times: depth === 0 ? 10 : 11 },
      ],
    });
    // An equality filter on a text element (the shape of a slug lookup): exactly one article.
    const equalityWalk = {
      template: `/${p}/items?elements.title=Article%20{n}&depth=0`,
      count: articles,
      width: 0,
      expect: [{ text: '"pagination":{"skip":0,"limit":0,"count":1,' }, { text: '"value":"Article ' }],
    };

    await measure('bare node:http, item bytes', bare, fixed('/item', connections));
    await measure('bare node:http, list bytes', bare, fixed('/list', connections));
    await measure('one item, cache hit', server, fixed(itemPath, connections));
    await measure('list depth 1, cache hit', server, fixed(listPath, connections));
    for (const c of [1, connections]) await measure('one item, cache miss', server, { ...itemWalk, connections: c });
    for (const depth of [1, 2])
      for (const c of missConnections)
        await measure(`list depth ${depth}, cache miss`, server, { ...listWalk(depth), connections: c });
    for (const c of missConnections)
      await measure('equality filter, cache miss', server, { ...equalityWalk, connections: c });

    process.stdout.write('  items-feed, every page …');
    const rss = sampleRss(server.pid);
    const { stdout } = await execFile(process.execPath, [
      new URL('./feed-client.ts', import.meta.url).pathname,
      server.url,
      p,
    ]);
    const feed = JSON.parse(stdout) as { items: number; pages: number; seconds: number; errors: number };
    const feedRss = rss.stop();
    process.stdout.write(` ${(feed.items / feed.seconds).toFixed(0)} items/s\n`);
    const rssAfter = rssMiB(server.pid);
    return {
      engine,
      items,
      articles,
      seed,
      index,
      cacheEntries,
      rows,
      feed: { ...feed, rssMiB: feedRss },
      rss: {
        idle: rssIdle,
        peak: Math.max(...rows.filter((r) => r.name.startsWith('bare') === false).map((r) => r.rssMiB), feedRss),
        after: rssAfter,
      },
    };
  } finally {
    for (const close of closers.reverse()) await close().catch(() => undefined);
    rmSync(seed.dataDir, { recursive: true, force: true });
  }
}

async function main() {
  const loader = chooseLoader(args.loader as LoaderName | undefined);
  const header = {
    loader: await loaderVersion(loader),
    seconds,
    warmup,
    connections,
    node: process.version,
    cpus: availableParallelism(),
  };
  const reports: RunReport[] = [];
  let postgres: RunningEngine | null = null;
  try {
    for (const engine of engines) {
      if (engine === 'postgres' && postgres === null) postgres = await startPostgres();
      for (const items of sizes) {
        const report = await runOne(engine, items, loader, postgres);
        printRun(report, header);
        reports.push(report);
      }
    }
  } finally {
    await postgres?.stop();
    if (postgres?.dir) rmSync(postgres.dir, { recursive: true, force: true });
  }
  printSummary(reports);
}

await main();
