// Version history benchmark (issue 31): the cost of keeping a version on the write path and the
// storage per version. For each engine: two stores side by side, each with a typical article type
// (title, summary, a rich text body of ~3 KB, a number, a date, a URL slug) and one item; then
// `--saves` upserts through the core operation, each changing one element (the body mostly, as a
// writer does), interleaved between the store with history (as shipped) and the one without (the
// history repository made a no-op), so the machine's load weighs on both alike. Prints saves per
// second of each and the bytes the versions take (sum of the stored rows' sizes, and the relation
// with its indexes and TOAST). Asserts nothing.
// Run: pnpm run bench:history -- [--saves 500] [--engines pglite,postgres]
import { parseArgs } from 'node:util';
import { createRequire } from 'node:module';
import type * as Kysely from 'kysely';
import {
  addContentType,
  addItem,
  createProject,
  operator,
  randomIds,
  systemClock,
  upsertVariant,
  zeroId,
  type CoreDeps,
} from '../../packages/core/src/index.ts';
import { openPgliteStore, openPostgresStore, type SqlStore } from '../../packages/store-sql/src/index.ts';
import { createTestDatabase } from '../../packages/testing/src/test-database.ts';
import { startPostgres } from '../../test/engines/postgres.ts';
import { withoutHistory } from './without-history.ts';

const { sql } = createRequire(new URL('../../packages/store-sql/package.json', import.meta.url))(
  'kysely',
) as typeof Kysely;

const argv = process.argv.slice(2);
const { values: args } = parseArgs({
  args: argv[0] === '--' ? argv.slice(1) : argv,
  options: {
    saves: { type: 'string', default: '500' },
    engines: { type: 'string', default: 'pglite,postgres' },
  },
});
const saves = Number(args.saves);
const engines = args.engines.split(',') as ('pglite' | 'postgres')[];

const paragraph = (n: number) =>
  `<p>Paragraph ${n}: a flat white is a coffee drink of espresso with microfoam, steamed milk with small, fine bubbles and a glossy or velvety consistency, poured over a single or double shot.</p>`;
const body = (edit: number) =>
  Array.from({ length: 16 }, (_, i) => paragraph(i === edit % 16 ? edit * 100 + i : i)).join('');

/** A project with the article, its item and first version; returns how to save edit `i`. */
async function prepare(
  store: SqlStore,
  isHistoryOn: boolean,
): Promise<{ save: (i: number) => Promise<unknown>; itemId: string }> {
  const core: CoreDeps = { store: isHistoryOn ? store : withoutHistory(store), clock: systemClock, ids: randomIds };
  const project = await createProject(core, { actor: operator, name: 'History bench' });
  const input = { actor: operator, projectId: project.id };
  await addContentType(core, {
    ...input,
    body: {
      name: 'Article',
      codename: 'article',
      elements: [
        { name: 'Title', codename: 'title', type: 'text' },
        { name: 'Summary', codename: 'summary', type: 'text' },
        { name: 'Body', codename: 'body', type: 'rich_text' },
        { name: 'Reading time', codename: 'reading_time', type: 'number' },
        { name: 'Date', codename: 'date', type: 'date_time' },
        { name: 'Slug', codename: 'slug', type: 'url_slug', depends_on: { element: { codename: 'title' } } },
      ],
    },
  });
  const item = await addItem(core, { ...input, body: { name: 'Flat white', type: { codename: 'article' } } });
  const variant = { ...input, itemKey: { id: String(item['id']) }, languageKey: { id: zeroId } };
  const upsert = (elements: Record<string, unknown>) =>
    upsertVariant(core, {
      ...variant,
      body: { elements: Object.entries(elements).map(([codename, value]) => ({ element: { codename }, value })) },
    });
  await upsert({
    title: 'Flat white',
    summary: 'Espresso with microfoam.',
    body: body(0),
    reading_time: 4,
    date: '2026-11-27T10:00:00Z',
  });
  // As a writer works: mostly the body, now and then the title.
  const save = (i: number) => upsert(i % 5 === 0 ? { title: `Flat white ${i}` } : { body: body(i) });
  return { save, itemId: String(item['id']) };
}

async function measure(engine: string, open: () => Promise<SqlStore>): Promise<void> {
  // Both stores open side by side and the saves interleaved (one without, one with history), so
  // the machine's load, which moves a lot on a shared machine, weighs on both alike.
  const off = await open();
  const on = await open();
  const without = await prepare(off, false);
  const withHistory = await prepare(on, true);
  for (let i = 1; i <= 20; i++) {
    await without.save(i);
    await withHistory.save(i);
  }
  let msOff = 0;
  let msOn = 0;
  for (let i = 21; i <= saves + 20; i++) {
    const t0 = performance.now();
    await without.save(i);
    const t1 = performance.now();
    await withHistory.save(i);
    msOff += t1 - t0;
    msOn += performance.now() - t1;
  }
  await off.close();
  const perSecond = { off: (saves * 1000) / msOff, on: (saves * 1000) / msOn };
  const rows = await sql<{ n: string; bytes: string; snapshots: string; variant_bytes: string }>`
    select count(*) as n, sum(pg_column_size(v.*)) as bytes, count(*) filter (where is_snapshot) as snapshots,
      (select pg_column_size(c.*) from content_variants c where c.item_id = ${withHistory.itemId}::uuid) as variant_bytes
    from variant_versions v where v.item_id = ${withHistory.itemId}::uuid`.execute(on.db);
  const relation = await sql<{ total: string }>`select pg_total_relation_size('variant_versions') as total`.execute(
    on.db,
  );
  await on.close();
  const r = rows.rows[0];
  const n = Number(r?.n ?? 0);
  console.log(
    `| ${engine} | ${perSecond.off.toFixed(1)} | ${perSecond.on.toFixed(1)} | ${(
      (1 - perSecond.on / perSecond.off) *
      100
    ).toFixed(1)} % | ${n} (${r?.snapshots} snapshots) | ${Math.round(Number(r?.bytes) / n)} | ${Math.round(
      Number(relation.rows[0]?.total) / n,
    )} | ${r?.variant_bytes} |`,
  );
}

console.log(`${saves} saves of one article (~3 KB rich text), each changing one element\n`);
console.log(
  '| engine | saves/s without history | saves/s with history | slower | versions | bytes/version (rows) | bytes/version (relation, indexes, TOAST) | variant row bytes |',
);
console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
for (const engine of engines) {
  if (engine === 'pglite') await measure('PGlite', () => openPgliteStore());
  else {
    const pg = await startPostgres();
    try {
      await measure('PostgreSQL', async () =>
        openPostgresStore({ connectionString: await createTestDatabase(pg.endpoint) }),
      );
    } finally {
      await pg.stop();
    }
  }
}
