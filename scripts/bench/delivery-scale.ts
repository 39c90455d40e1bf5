// Derives a larger Delivery benchmark seed from a cached smaller one by SQL, for sizes that seeding
// through core operations cannot reach on a shared machine (100,000 items at 10–50 items/s is hours).
// The project, its model and its workflow stay those the core operations created; the items and
// variants are rewritten with exactly the shape delivery-seed.ts gives them (1% authors, articles
// with title, rank, summary, one author and the previous article as related), published, and the
// facets are kept by the store's own trigger. The result lands in the same cache as a seeded run
// (seed.json says `derivedBySql`), so `bench:delivery` and `bench:search-index` restore it as usual.
// Run: node scripts/bench/delivery-scale.ts --items 100000 [--engines pglite,postgres] [--from 10000]
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createRequire } from 'node:module';
import type * as Kysely from 'kysely';
import { openPgliteStore, openPostgresStore, type SqlStore } from '../../packages/store-sql/src/index.ts';
import { startPostgres } from '../../test/engines/postgres.ts';
import { authorCount } from './delivery-content.ts';
import { prepareSeed, postgresTool, seedCacheEntry, type Engine } from './delivery-setup.ts';

// kysely is a dependency of the store package, not of the workspace root this script runs from.
const { sql } = createRequire(new URL('../../packages/store-sql/package.json', import.meta.url))(
  'kysely',
) as typeof Kysely;

const usage = `Usage: node scripts/bench/delivery-scale.ts --items N [--engines pglite,postgres] [--from M]

Writes the Delivery benchmark's cached seed of N items for each engine, derived by SQL from the
cached (or, when missing, seeded through core operations) seed of M items (default 10000).`;

const { values: args } = parseArgs({
  options: {
    items: { type: 'string' },
    engines: { type: 'string', default: 'pglite,postgres' },
    from: { type: 'string', default: '10000' },
    help: { type: 'boolean', default: false },
  },
});
if (args.help || args.items === undefined) {
  console.log(usage);
  process.exit(args.help ? 0 : 2);
}
const items = Number(args.items);
const from = Number(args.from);
const engines = args.engines.split(',') as Engine[];

/** Replaces every item and variant of the project with `count` items of the benchmark's shape. */
async function rewriteContent(store: SqlStore, projectId: string, count: number): Promise<void> {
  const authors = authorCount(count);
  const db = store.db;
  const element = (type: string, codename: string) => sql`(select e->>'id' from model_objects m,
    jsonb_array_elements(m.body->'elements') e where m.project_id = ${projectId}::uuid
    and m.kind = 'content_type' and m.codename = ${type} and e->>'codename' = ${codename})`;
  const typeId = (codename: string) =>
    sql`(select id from model_objects where project_id = ${projectId}::uuid and kind = 'content_type' and codename = ${codename})`;
  // Deterministic ids, so an article's author and related item are known without a lookup.
  const idOf = (index: Expr) => sql`md5(${projectId}::text || ':' || ${index}::text)::uuid`;
  type Expr = ReturnType<typeof sql>;
  await db.transaction().execute(async (trx) => {
    const template = await sql<{
      language_id: string;
      workflow_id: string;
      step_id: string;
    }>`select language_id, workflow_id, step_id from content_variants where project_id = ${projectId}::uuid
      and published is not null limit 1`.execute(trx);
    const t = template.rows[0];
    if (t === undefined) throw new Error('the template project has no published variant');
    await sql`delete from content_items where project_id = ${projectId}::uuid`.execute(trx);
    await sql`insert into content_items (project_id, id, name, codename, type_id, collection_id, sitemap_locations, last_modified)
      select ${projectId}::uuid, ${idOf(sql`i`)}, c, c,
        case when i < ${authors} then ${typeId('author')} else ${typeId('article')} end,
        '00000000-0000-0000-0000-000000000000'::uuid, '[]'::jsonb, now()
      from (select i, case when i < ${authors} then 'author_' || lpad(i::text, 6, '0')
        else 'article_' || lpad((i - ${authors})::text, 6, '0') end as c
        from generate_series(0, ${count - 1}) i) s`.execute(trx);
    const authorElements = sql`jsonb_build_object(${element('author', 'name')}, jsonb_build_object('value', 'Author ' || i))`;
    const n = sql`(i - ${authors})`;
    const articleElements = sql`jsonb_build_object(
      ${element('article', 'title')}, jsonb_build_object('value', 'Article ' || ${n}),
      ${element('article', 'rank')}, jsonb_build_object('value', ${n}),
      ${element('article', 'summary')}, jsonb_build_object('value', repeat('Summary of article ' || ${n} || '. ', 4)),
      ${element('article', 'authors')}, jsonb_build_object('value', jsonb_build_array(jsonb_build_object('id', ${idOf(sql`(${n} % ${authors})`)}))),
      ${element('article', 'related')}, jsonb_build_object('value', case when ${n} = 0 then '[]'::jsonb
        else jsonb_build_array(jsonb_build_object('id', ${idOf(sql`(i - 1)`)})) end))`;
    await sql`insert into content_variants (project_id, item_id, language_id, type_id, workflow_id, step_id, last_modified, body, published)
      select ${projectId}::uuid, ${idOf(sql`i`)}, ${t.language_id}::uuid,
        case when i < ${authors} then ${typeId('author')} else ${typeId('article')} end,
        ${t.workflow_id}::uuid, ${t.step_id}::uuid, now(),
        jsonb_build_object('note', null, 'due_date', null, 'elements', el, 'contributors', '[]'::jsonb,
          'schedule', jsonb_build_object('publish_time', null, 'unpublish_time', null,
            'publish_display_timezone', null, 'unpublish_display_timezone', null)),
        jsonb_build_object('elements', el, 'workflowId', ${t.workflow_id}::text,
          'lastModified', to_char(now() at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
      from (select i, case when i < ${authors} then ${authorElements} else ${articleElements} end as el
        from generate_series(0, ${count - 1}) i) s`.execute(trx);
  });
  await sql`analyze`.execute(db);
}

async function scaleOne(engine: Engine, adminUrl: string | undefined): Promise<void> {
  const entry = seedCacheEntry(engine, items);
  if (existsSync(join(entry, 'seed.json'))) {
    console.log(`${engine}: ${entry} exists, left as it is`);
    return;
  }
  const started = performance.now();
  const base = await prepareSeed({ engine, items: from, ...(adminUrl ? { postgresAdminUrl: adminUrl } : {}) });
  console.log(`${engine}: ${from}-item seed restored; rewriting it to ${items} items …`);
  const store =
    base.databaseUrl === undefined
      ? await openPgliteStore({ dataDir: join(base.dataDir, 'pglite') })
      : await openPostgresStore({ connectionString: base.databaseUrl, poolSize: 2 });
  try {
    await rewriteContent(store, base.projectId, items);
  } finally {
    await store.close();
  }
  const staging = `${entry}.partial-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  if (base.databaseUrl === undefined)
    cpSync(join(base.dataDir, 'pglite'), join(staging, 'pglite'), { recursive: true });
  else execFileSync(postgresTool('pg_dump'), ['-Fc', '-f', join(staging, 'seed.dump'), base.databaseUrl]);
  const seconds = (performance.now() - started) / 1000;
  const info = { projectId: base.projectId, seconds, items, derivedBySql: from, createdAt: new Date().toISOString() };
  writeFileSync(join(staging, 'seed.json'), JSON.stringify(info));
  rmSync(entry, { recursive: true, force: true });
  renameSync(staging, entry);
  rmSync(base.dataDir, { recursive: true, force: true });
  console.log(`${engine}: ${entry} written in ${seconds.toFixed(0)} s`);
}

const postgres = engines.includes('postgres') ? await startPostgres() : null;
try {
  for (const engine of engines) await scaleOne(engine, postgres?.endpoint);
} finally {
  await postgres?.stop();
  if (postgres?.dir) rmSync(postgres.dir, { recursive: true, force: true });
}
