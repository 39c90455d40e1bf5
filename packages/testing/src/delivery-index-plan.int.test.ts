import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { sql } from 'kysely';
import type { ItemFilter } from '@lectern/core';
import { openPgliteStore, openPostgresStore, type SqlStore } from '@lectern/store-sql';
import { createSqlDocuments, itemQuerySql, type SqlItemQuery } from '@lectern/index-sql';
import { createIndexLedger } from '@lectern/store-sql';
import { createTestDatabase } from './test-database.ts';

/**
 * The plans of selective filters at a size where scanning is slow (issue 35: an equality filter on
 * a slug took 57 ms at 100,000 items because the plan read every value row of the property). With
 * 20,000 documents of another project beside 5,000 of this one, a filter on one element value must
 * be an index lookup on (project, channel, property, value), not a scan, and still find its item.
 */

const projectId = '6f1d1c7e-0000-4000-8000-000000000001';
const otherProject = '6f1d1c7e-0000-4000-8000-000000000002';
const channel = 'production';
const typeElements = { article: { slug: 'url_slug', rank: 'number', tags: 'multiple_choice' } };

/** `count` documents of a project: slug `slug-i`, rank i, tags [`tag-i`], as the writer stores them. */
async function fill(store: SqlStore, project: string, count: number): Promise<void> {
  await sql`insert into delivery_documents (project_id, channel, item_id, language, codename, name, type, collection, last_modified, body, hash)
    select ${project}::uuid, ${channel}, md5(${project} || i)::uuid, 'default', 'item_' || i, 'Item ' || i,
      'article', 'default', '2026-01-01T00:00:00Z', '{"codename":"item_' || i || '"}', ''
    from generate_series(1, ${count}) i`.execute(store.db);
  const docs = sql`(select doc_id, codename from delivery_documents where project_id = ${project}::uuid)`;
  await sql`insert into delivery_values (doc_id, property, project_id, channel, kind, num, txt)
    select doc_id, 'elements.slug', ${project}::uuid, ${channel}, 's', null, 'slug-' || substr(codename, 6) from ${docs} d
    union all
    select doc_id, 'elements.rank', ${project}::uuid, ${channel}, 'n', substr(codename, 6)::float8, null from ${docs} d`.execute(
    store.db,
  );
  await sql`insert into delivery_members (doc_id, property, member, project_id, channel)
    select doc_id, 'elements.tags', 'tag-' || substr(codename, 6), ${project}::uuid, ${channel} from ${docs} d`.execute(
    store.db,
  );
}

const query = (filter: ItemFilter): SqlItemQuery => ({
  projectId,
  channel,
  languages: ['default'],
  filters: [filter],
  order: null,
  typeElements,
});

async function planOf(store: SqlStore, filter: ItemFilter): Promise<string> {
  const rows = await sql<{
    'QUERY PLAN': string;
  }>`explain select d.body ${itemQuerySql(query(filter), { isCount: false })} limit 10`.execute(store.db);
  return rows.rows.map((r) => r['QUERY PLAN']).join('\n');
}

function describePlans(engine: string, open: () => Promise<SqlStore>) {
  describe(`${engine}: selective filters on element values`, () => {
    let store: SqlStore;
    beforeAll(async () => {
      store = await open();
      await fill(store, projectId, 5000);
      await fill(store, otherProject, 20_000);
      await sql`analyze`.execute(store.db);
    }, 120_000);
    afterAll(() => store.close());

    const cases: [string, ItemFilter, string][] = [
      [
        'equality on a text value (a slug)',
        { property: 'elements.slug', operator: 'eq', values: ['slug-4321'] },
        'delivery_values_txt',
      ],
      [
        'in on text values',
        { property: 'elements.slug', operator: 'in', values: ['slug-4321', 'slug-7'] },
        'delivery_values_txt',
      ],
      ['equality on a number', { property: 'elements.rank', operator: 'eq', values: ['4321'] }, 'delivery_values_num'],
      [
        'contains on an array',
        { property: 'elements.tags', operator: 'contains', values: ['tag-4321'] },
        'delivery_members_member',
      ],
    ];
    it.each(cases)('%s is an index lookup, not a scan', async (_name, filter, index) => {
      const plan = await planOf(store, filter);
      expect(plan).not.toMatch(/Seq Scan on delivery_(values|members)/);
      // The index is entered at this project's rows: a condition on its leading column. Without
      // one the planner may still name the index, walking all of it (every project's rows).
      const lines = plan.split('\n');
      const at = lines.findIndex((l) => l.includes(`using ${index} on`));
      expect(at, plan).toBeGreaterThanOrEqual(0);
      expect(lines[at + 1], plan).toMatch(/Index Cond: \(\(project_id = /);
    });

    it.each(cases)('%s finds the item of that value and no other', async (_name, filter) => {
      const documents = createSqlDocuments({ db: store.db, ledger: createIndexLedger({ db: store.db }) });
      const found = await documents.queryItems({ ...query(filter), skip: 0, limit: 10, isTotalCountNeeded: true });
      const codenames = found.items.map((i) => (i as unknown as { codename: string }).codename).sort();
      expect(codenames).toEqual(filter.values.length === 2 ? ['item_4321', 'item_7'] : ['item_4321']);
      expect(found.totalCount).toBe(codenames.length);
    });
  });
}

describePlans('PGlite', () => openPgliteStore());
const postgresUrl = inject('postgresUrl');
describe.skipIf(!postgresUrl)('PostgreSQL', () => {
  describePlans('PostgreSQL', async () =>
    openPostgresStore({ connectionString: await createTestDatabase(postgresUrl) }),
  );
});
