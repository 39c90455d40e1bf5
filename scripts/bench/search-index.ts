// Benchmark: the SQL delivery index (PostgreSQL tables) against the search-engine index
// (OpenSearch, metadata in PostgreSQL), on the same seeded project (scripts/bench/delivery-seed.ts:
// 1% authors, the rest articles linking an author and the previous article). It measures the index
// port itself, in this process, without HTTP (Delivery adds the same work on top of either):
// rebuild time, a filtered ordered list of 10 at depth 2, an equality filter, paging through
// everything as /items-feed does, and publish → visible. Prints a table per item count.
// Run: node scripts/bench/search-index.ts [--items 10000[,100000]] [--samples 50]
import { parseArgs } from 'node:util';
import {
  createNewVersion,
  operator,
  publishVariant,
  randomIds,
  systemClock,
  upsertVariant,
  type CoreDeps,
  type DeliveryIndexReader,
  type DeliveryIndexWriter,
  type ItemQuery,
} from '../../packages/core/src/index.ts';
import { connectSearchEngine, createSearchIndex } from '../../packages/index-elasticsearch/src/index.ts';
import { createIndexer, createSqlIndex } from '../../packages/index-sql/src/index.ts';
import { openPostgresStore } from '../../packages/store-sql/src/index.ts';
import type { RunningEngine } from '../../test/engines/engine.ts';
import { startOpenSearch } from '../../test/engines/opensearch.ts';
import { startPostgres } from '../../test/engines/postgres.ts';
import { articleCodename, authorCount } from './delivery-content.ts';
import { prepareSeed } from './delivery-setup.ts';

const { values: args } = parseArgs({
  options: { items: { type: 'string', default: '10000' }, samples: { type: 'string', default: '50' } },
});
const sizes = (args.items ?? '10000').split(',').map(Number);
const samples = Number(args.samples);

type Index = DeliveryIndexReader & DeliveryIndexWriter;
interface Measure {
  readonly name: string;
  readonly p50: number;
  readonly p99: number;
}

const percentile = (values: readonly number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
};

/** Warm-up runs before each measure (the engines' caches, the JVM's compiler). */
const warmUp = 20;

async function timed(name: string, runs: number, work: (i: number) => Promise<void>): Promise<Measure> {
  for (let i = 0; i < Math.min(warmUp, runs); i++) await work(i);
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await work(runs + i);
    times.push(performance.now() - started);
  }
  return { name, p50: percentile(times, 50), p99: percentile(times, 99) };
}

async function measureIndex(o: { core: CoreDeps; index: Index; projectId: string; items: number }) {
  const { core, index, projectId, items } = o;
  const articles = items - authorCount(items);
  const base: ItemQuery = {
    projectId,
    channel: 'production',
    languages: ['default'],
    filters: [],
    order: null,
    skip: 0,
    limit: 10,
    isTotalCountNeeded: true,
  };
  const indexer = createIndexer({ core, index, assetsBase: 'http://127.0.0.1:4400/assets' });
  const rebuildStarted = performance.now();
  await indexer.rebuild({ projectId });
  const rebuildSeconds = (performance.now() - rebuildStarted) / 1000;
  const rows: Measure[] = [];
  rows.push(
    await timed('filtered, ordered list of 10, depth 2', samples, async (i) => {
      const found = await index.queryItems({
        ...base,
        filters: [
          { property: 'system.type', operator: 'eq', values: ['article'] },
          { property: 'elements.rank', operator: 'gte', values: [String((i * 97) % articles)] },
        ],
        order: { property: 'elements.rank', direction: 'desc' },
      });
      let level = found.items;
      for (let depth = 0; depth < 2; depth++) {
        const codenames = [...new Set(level.flatMap((v) => v.linkedItemCodenames))];
        level = await index.itemsByCodename({ projectId, channel: 'production', languages: ['default'], codenames });
      }
    }),
  );
  // The upper half of the articles: the publish measure below edits the first ones.
  rows.push(
    await timed('equality filter (elements.title eq)', samples, async (i) => {
      const found = await index.queryItems({
        ...base,
        filters: [
          {
            property: 'elements.title',
            operator: 'eq',
            values: [`Article ${articles - 1 - ((i * 7919) % Math.floor(articles / 2))}`],
          },
        ],
      });
      if (found.items.length !== 1) throw new Error('the equality filter missed its article');
    }),
  );
  rows.push(
    await timed('items-feed through everything (pages of 1000)', 3, async () => {
      let after: string | null = null;
      let seen = 0;
      for (;;) {
        const page: Awaited<ReturnType<Index['queryItems']>> = await index.queryItems({
          ...base,
          limit: 1001,
          isTotalCountNeeded: false,
          filters: after === null ? [] : [{ property: 'system.codename', operator: 'gt', values: [after] }],
        });
        seen += Math.min(page.items.length, 1000);
        if (page.items.length <= 1000) break;
        after = page.items[999]?.item.system.codename ?? null;
      }
      if (seen !== items) throw new Error(`the feed paged through ${seen} of ${items} items`);
    }),
  );
  const actor = operator;
  rows.push(
    await timed('publish → visible (index write + read)', Math.min(samples, 30), async (i) => {
      const codename = articleCodename(i);
      const key = { itemKey: { codename }, languageKey: { codename: 'default' } };
      const title = `Edited ${i} ${Date.now()}`;
      await createNewVersion(core, { actor, projectId, ...key });
      await upsertVariant(core, {
        actor,
        projectId,
        ...key,
        body: { elements: [{ element: { codename: 'title' }, value: title }] },
      });
      await publishVariant(core, { actor, projectId, ...key });
      await indexer.catchUp(projectId);
      const found = await index.queryItems({
        ...base,
        filters: [{ property: 'elements.title', operator: 'eq', values: [title] }],
      });
      if (found.items.length !== 1) throw new Error('a published edit was not visible after catch-up');
    }),
  );
  return { rebuildSeconds, rows };
}

function table(items: number, results: Record<string, Awaited<ReturnType<typeof measureIndex>>>) {
  const names = Object.keys(results);
  const first = results[names[0] ?? ''];
  const lines = [
    `### ${items.toLocaleString('en')} items`,
    '',
    `| measure (p50 / p99 ms) | ${names.join(' | ')} |`,
    `| --- | ${names.map(() => '---:').join(' | ')} |`,
    `| rebuild (s) | ${names.map((n) => results[n]?.rebuildSeconds.toFixed(1)).join(' | ')} |`,
    ...(first?.rows ?? []).map(
      (row, i) =>
        `| ${row.name} | ${names
          .map((n) => {
            const r = results[n]?.rows[i];
            return r ? `${r.p50.toFixed(1)} / ${r.p99.toFixed(1)}` : '-';
          })
          .join(' | ')} |`,
    ),
  ];
  console.log(lines.join('\n'));
}

const engines: RunningEngine[] = [];
try {
  console.log('starting PostgreSQL and OpenSearch');
  const [postgres, search] = await Promise.all([startPostgres(), startOpenSearch()]);
  engines.push(postgres, search);
  for (const items of sizes) {
    const seed = await prepareSeed({ engine: 'postgres', items, postgresAdminUrl: postgres.endpoint });
    const store = await openPostgresStore({ connectionString: seed.databaseUrl ?? '' });
    const core: CoreDeps = { store, clock: systemClock, ids: randomIds };
    const engine = connectSearchEngine({ flavour: 'opensearch', url: search.endpoint });
    const results: Record<string, Awaited<ReturnType<typeof measureIndex>>> = {};
    try {
      console.log(`${items} items: SQL index`);
      results['SQL (PostgreSQL)'] = await measureIndex({
        core,
        index: createSqlIndex({ db: store.db }),
        projectId: seed.projectId,
        items,
      });
      console.log(`${items} items: search index`);
      const searchIndex = createSearchIndex({ engine, db: store.db, prefix: `bench-${Date.now()}` });
      results['search (OpenSearch)'] = await measureIndex({
        core,
        index: searchIndex,
        projectId: seed.projectId,
        items,
      });
      await searchIndex.dropProject(seed.projectId);
    } finally {
      await engine.close();
      await store.close();
    }
    table(items, results);
  }
} finally {
  for (const engine of engines) await engine.stop();
}
