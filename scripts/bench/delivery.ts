// Delivery API benchmark: builds a project in-process on the embedded shape (PGlite in a temp
// dir), indexes it, serves the Delivery app on a loopback port and drives closed-loop load.
// Run: node scripts/bench/delivery.ts [--items 10000] [--seconds 5] [--connections 16]
// Prints a table; it asserts nothing (CONVENTIONS: benchmarks are scripts that print tables).
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import {
  addContentType,
  addItem,
  createProject,
  operator,
  publishVariant,
  randomIds,
  systemClock,
  upsertVariant,
  type CoreDeps,
} from '../../packages/core/src/index.ts';
import { createLogger, createProcessMetrics, createReadiness } from '../../packages/http-kit/src/index.ts';
import { createIndexer, createSqlIndex } from '../../packages/index-sql/src/index.ts';
import { openPgliteStore } from '../../packages/store-sql/src/index.ts';
import { buildDeliveryApp } from '../../services/delivery/src/index.ts';
import { driveLoad, type LoadResult } from './load.ts';

const usage = `Usage: node scripts/bench/delivery.ts [options]

Builds a project of --items content items through core operations on PGlite (temp dir), lets the
indexer catch up, then measures the Delivery API over loopback with a closed-loop load generator.

  --items N         content items to create (default 10000; 1% are authors, the rest articles)
  --seconds S       measured seconds per scenario (default 5; plus 1 s unmeasured warm-up)
  --connections C   concurrent keep-alive connections (default 16)
  --help            this text

"uncached" scenarios run against a second Delivery app whose response cache holds no entries
(cacheMaxEntries 0), so every request reads the index and renders; the URL stays the same.
Rate limits are off in both apps. RSS is this whole process (PGlite, server and load generator).`;

const { values: args } = parseArgs({
  options: {
    items: { type: 'string', default: '10000' },
    seconds: { type: 'string', default: '5' },
    connections: { type: 'string', default: '16' },
    help: { type: 'boolean', default: false },
  },
});
if (args.help) {
  console.log(usage);
  process.exit(0);
}
const itemCount = Number(args.items);
const seconds = Number(args.seconds);
const connections = Number(args.connections);
if (![itemCount, seconds, connections].every((n) => Number.isFinite(n) && n > 0) || itemCount < 200) {
  console.error(`Invalid options (items ≥ 200, seconds > 0, connections > 0).\n\n${usage}`);
  process.exit(2);
}

/** Fastify as services/delivery resolves it (the workspace root has no dependency on it). */
interface BareFastify {
  get(path: string, handler: (req: unknown, reply: BareReply) => unknown): void;
  listen(options: { host: string; port: number }): Promise<string>;
  close(): Promise<void>;
}
interface BareReply {
  header(name: string, value: string): BareReply;
  send(body: string): BareReply;
}
async function loadFastify(): Promise<(options: { logger: boolean }) => BareFastify> {
  const require = createRequire(new URL('../../services/delivery/package.json', import.meta.url));
  const module = (await import(pathToFileURL(require.resolve('fastify')).href)) as {
    default: (options: { logger: boolean }) => BareFastify;
  };
  return module.default;
}

function progress(label: string, done: number, total: number) {
  if (process.stdout.isTTY) process.stdout.write(`\r  ${label} ${done}/${total}`);
  else if (done === total || done % 1000 === 0) console.log(`  ${label} ${done}/${total}`);
  if (done === total && process.stdout.isTTY) process.stdout.write('\n');
}

const pad = (n: number, width = 5) => String(n).padStart(width, '0');

async function buildProject(core: CoreDeps): Promise<string> {
  const project = await createProject(core, { actor: operator, name: 'Delivery benchmark' });
  const input = { actor: operator, projectId: project.id };
  await addContentType(core, {
    ...input,
    body: { name: 'Author', codename: 'author', elements: [{ name: 'Name', codename: 'name', type: 'text' }] },
  });
  await addContentType(core, {
    ...input,
    body: {
      name: 'Article',
      codename: 'article',
      elements: [
        { name: 'Title', codename: 'title', type: 'text' },
        { name: 'Rank', codename: 'rank', type: 'number' },
        { name: 'Summary', codename: 'summary', type: 'text' },
        { name: 'Authors', codename: 'authors', type: 'modular_content' },
        { name: 'Related', codename: 'related', type: 'modular_content' },
      ],
    },
  });
  const authors = Math.max(1, Math.floor(itemCount / 100));
  const write = async (codename: string, type: string, elements: unknown[]) => {
    await addItem(core, { ...input, body: { name: codename, codename, type: { codename: type } } });
    const key = { itemKey: { codename }, languageKey: { codename: 'default' } };
    await upsertVariant(core, { ...input, ...key, body: { elements } });
    await publishVariant(core, { ...input, ...key });
  };
  const started = performance.now();
  for (let i = 0; i < itemCount; i += 1) {
    if (i < authors) {
      await write(`author_${pad(i)}`, 'author', [{ element: { codename: 'name' }, value: `Author ${i}` }]);
    } else {
      const n = i - authors;
      await write(`article_${pad(n)}`, 'article', [
        { element: { codename: 'title' }, value: `Article ${n}` },
        { element: { codename: 'rank' }, value: n },
        { element: { codename: 'summary' }, value: `Summary of article ${n}. `.repeat(4) },
        { element: { codename: 'authors' }, value: [{ codename: `author_${pad(n % authors)}` }] },
        { element: { codename: 'related' }, value: n === 0 ? [] : [{ codename: `article_${pad(n - 1)}` }] },
      ]);
    }
    progress('items', i + 1, itemCount);
  }
  console.log(`  created in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return project.id;
}

async function main() {
  const dataDir = await mkdtemp(join(tmpdir(), 'lectern-bench-'));
  const store = await openPgliteStore({ dataDir: join(dataDir, 'pglite') });
  const core: CoreDeps = { store, clock: systemClock, ids: randomIds };
  const closers: (() => Promise<unknown>)[] = [];
  try {
    console.log(`Building ${itemCount} items (PGlite in ${dataDir})`);
    const projectId = await buildProject(core);
    const index = createSqlIndex({ db: store.db });
    const indexer = createIndexer({ core, index, assetsBase: 'http://127.0.0.1/assets' });
    const indexStarted = performance.now();
    await indexer.catchUp(projectId);
    console.log(`  indexed in ${((performance.now() - indexStarted) / 1000).toFixed(1)} s`);

    const shared = {
      core,
      index,
      channel: 'production' as const,
      metrics: createProcessMetrics(),
      readiness: createReadiness([]),
      logger: createLogger({ level: 'silent' }),
    };
    const cached = buildDeliveryApp({ ...shared, http: { rateLimits: [] } });
    const uncached = buildDeliveryApp({ ...shared, http: { rateLimits: [], cacheMaxEntries: 0 } });
    const cachedUrl = await cached.listen({ host: '127.0.0.1', port: 0 });
    closers.push(() => cached.close());
    const uncachedUrl = await uncached.listen({ host: '127.0.0.1', port: 0 });
    closers.push(() => uncached.close());

    const itemPath = `/${projectId}/items/article_${pad(Math.floor(itemCount / 2))}`;
    const listPath =
      `/${projectId}/items?system.type=article&elements.rank[gte]=${Math.floor(itemCount / 4)}` +
      '&order=elements.rank[desc]&limit=10&depth=2';
    const feedPath = `/${projectId}/items-feed?system.type=article`;

    const sample = await fetch(`${cachedUrl}${itemPath}`);
    const itemBytes = await sample.text();
    if (sample.status !== 200) throw new Error(`GET ${itemPath}: ${sample.status} ${itemBytes}`);
    const createFastify = await loadFastify();
    const bare = createFastify({ logger: false });
    bare.get('/bare', (_req, reply) => reply.header('content-type', 'application/json; charset=utf-8').send(itemBytes));
    const bareUrl = await bare.listen({ host: '127.0.0.1', port: 0 });
    closers.push(() => bare.close());

    const scenarios: { name: string; baseUrl: string; path: string }[] = [
      { name: 'bare Fastify, same bytes as one item (ceiling)', baseUrl: bareUrl, path: '/bare' },
      { name: 'one item, cached', baseUrl: cachedUrl, path: itemPath },
      { name: 'one item, uncached', baseUrl: uncachedUrl, path: itemPath },
      { name: 'list: filter + order, limit 10, depth 2, cached', baseUrl: cachedUrl, path: listPath },
      { name: 'list: filter + order, limit 10, depth 2, uncached', baseUrl: uncachedUrl, path: listPath },
      { name: 'items-feed first page (1,000 items), uncached', baseUrl: uncachedUrl, path: feedPath },
    ];
    const results: { name: string; bytes: number; result: LoadResult }[] = [];
    for (const s of scenarios) {
      const probe = await fetch(`${s.baseUrl}${s.path}`);
      const bytes = (await probe.arrayBuffer()).byteLength;
      if (probe.status !== 200) throw new Error(`${s.name}: GET ${s.path} answered ${probe.status}`);
      process.stdout.write(`  running: ${s.name} …`);
      const result = await driveLoad({
        baseUrl: s.baseUrl,
        pathOf: () => s.path,
        connections,
        seconds,
        warmupSeconds: 1,
      });
      process.stdout.write(` ${Math.round(result.requestsPerSecond)} req/s\n`);
      results.push({ name: s.name, bytes, result });
    }
    printTable(results);
  } finally {
    for (const close of closers.reverse()) await close().catch(() => undefined);
    await store.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

function printTable(rows: readonly { name: string; bytes: number; result: LoadResult }[]) {
  const header = ['scenario', 'req/s', 'p50 ms', 'p99 ms', 'RSS MiB', 'body KiB', 'errors'];
  const lines = rows.map((r) => [
    r.name,
    r.result.requestsPerSecond.toFixed(0),
    r.result.p50Ms.toFixed(2),
    r.result.p99Ms.toFixed(2),
    r.result.rssMiB.toFixed(0),
    (r.bytes / 1024).toFixed(1),
    String(r.result.errors),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => (l[i] ?? '').length)));
  const format = (cells: readonly string[]) =>
    `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join(' | ')} |`;
  console.log(
    `\nDelivery API, ${itemCount} items, ${connections} connections, ${seconds} s per scenario, Node ${process.version}`,
  );
  console.log(format(header));
  console.log(`|${widths.map((w, i) => (i === 0 ? `-${'-'.repeat(w)}-` : `-${'-'.repeat(w)}:`)).join('|')}|`);
  for (const l of lines) console.log(format(l));
}

await main();
