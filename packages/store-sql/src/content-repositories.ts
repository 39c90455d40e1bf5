import { sql, type Kysely, type Selectable } from 'kysely';
import type {
  ContentItemRecord,
  ContentItemRepository,
  ScheduledJob,
  ScheduledJobRepository,
  VariantRecord,
  VariantRepository,
} from '@lectern/core';
import type { ContentItemsTable, ContentVariantsTable, Database, ScheduledJobsTable } from './schema.ts';
import { inKeyOrder, keyedPage, positionOf } from './keyset.ts';
import { filterVariantPage } from './variant-filter-query.ts';
import { insertRow, run } from './prepared-text.ts';
import { latestVersionJson, versionFromJson } from './history-repository.ts';
import { firstRow, isDeleted, positionPage, projectRows, whereRow } from './project-rows.ts';

function toItem(row: Selectable<ContentItemsTable>): ContentItemRecord {
  return {
    projectId: row.project_id,
    id: row.id,
    name: row.name,
    codename: row.codename,
    externalId: row.external_id,
    typeId: row.type_id,
    collectionId: row.collection_id,
    sitemapLocations: row.sitemap_locations,
    lastModified: new Date(row.last_modified),
  };
}

/** `items.findForWrite` by each kind of key, as text built once (it runs on every upsert). */
const itemForWriteText = Object.fromEntries(
  (['id', 'codename', 'external_id'] as const).map((column) => [
    column,
    `select i.*, (select version from model_versions v where v.project_id = i.project_id) as model_version
      from content_items i where i.project_id = $1 and i.${column} = $2 for update of i`,
  ]),
) as Record<'id' | 'codename' | 'external_id', string>;

/**
 * `items.findByExternalIdForUpsert`: always one row, the item's columns null when absent (the
 * lateral subquery locks the item's row; the derived id's check reads without a lock: an item
 * created with that id since then fails the insert at the primary key, and the write runs again).
 */
const itemForUpsertText = `select i.*, i.id is not null as found,
    exists (select 1 from content_items d where d.project_id = $1 and d.id = $3) as derived_id_taken,
    (select version from model_versions v where v.project_id = $1) as model_version
  from (select 1) one
  left join lateral (
    select * from content_items where project_id = $1 and external_id = $2 for update
  ) i on true`;

/** A `model_versions.version` as the store port answers it (an int8 as text; null: none kept). */
const modelVersionOf = (version: string | number | null): string | null => (version === null ? null : String(version));

export function contentItemRepository(db: Kysely<Database>): ContentItemRepository {
  const values = (r: ContentItemRecord) => ({
    name: r.name,
    codename: r.codename,
    external_id: r.externalId,
    type_id: r.typeId,
    collection_id: r.collectionId,
    sitemap_locations: JSON.stringify(r.sitemapLocations),
    last_modified: r.lastModified,
  });
  const rows = projectRows(db, {
    select: (projectId: string) => db.selectFrom('content_items').selectAll().where('project_id', '=', projectId),
    map: toItem,
  });
  return {
    list: rows.list,
    page: rows.page,
    async ofType(projectId, typeId, sampleSize) {
      const ofType = db.selectFrom('content_items').where('project_id', '=', projectId).where('type_id', '=', typeId);
      const count = await ofType.select((eb) => eb.fn.countAll<string | number>().as('n')).executeTakeFirstOrThrow();
      const rows = await ofType.selectAll().orderBy('position').limit(sampleSize).execute();
      return { count: Number(count.n), sample: rows.map(toItem) };
    },
    async collectionIds(projectId) {
      const rows = await db
        .selectFrom('content_items')
        .select('collection_id')
        .distinct()
        .where('project_id', '=', projectId)
        .execute();
      return rows.map((r) => r.collection_id);
    },
    find: rows.find,
    async findForWrite(projectId, key) {
      // The model version comes with the row lock (one round trip for both): read from the
      // statement's snapshot, so it is at least as new as any model commit before this request.
      const [column, value]: ['id' | 'codename' | 'external_id', string] =
        'id' in key ? ['id', key.id] : 'codename' in key ? ['codename', key.codename] : ['external_id', key.externalId];
      const [row] = await run<Selectable<ContentItemsTable> & { model_version: string | number | null }>(
        db,
        itemForWriteText[column],
        [projectId, value],
      );
      if (!row) return null;
      const { model_version: version, ...item } = row;
      return { item: toItem(item), modelVersion: modelVersionOf(version) };
    },
    async findByExternalIdForUpsert(projectId, externalId, derivedId) {
      const [row] = await run<
        Selectable<ContentItemsTable> & {
          found: boolean;
          derived_id_taken: boolean;
          model_version: string | number | null;
        }
      >(db, itemForUpsertText, [projectId, externalId, derivedId]);
      if (!row) throw new Error('the upsert lookup answered no row');
      const { found, derived_id_taken: isDerivedIdTaken, model_version: version, ...item } = row;
      return {
        item: found ? toItem(item) : null,
        isDerivedIdTaken,
        modelVersion: modelVersionOf(version),
      };
    },
    findMany: rows.findMany,
    async codenamesStartingWith(projectId, prefix) {
      // In byte order every string that starts with `prefix` lies in [prefix, prefix + U+10FFFF):
      // a range of the index content_items_codename_bytes (migration 0026), not a read of every
      // item of the project; `left(…)` keeps the answer exact.
      const rows = await db
        .selectFrom('content_items')
        .select('codename')
        .where('project_id', '=', projectId)
        .where(sql<boolean>`(codename collate "C") >= ${prefix}`)
        .where(sql<boolean>`(codename collate "C") < ${`${prefix}\u{10FFFF}`}`)
        .where(sql<boolean>`left(codename, ${prefix.length}) = ${prefix}`)
        .execute();
      return rows.map((r) => r.codename);
    },
    async insert(r) {
      await db
        .insertInto('content_items')
        .values({ project_id: r.projectId, id: r.id, ...values(r) })
        .execute();
    },
    async update(r) {
      await whereRow(db.updateTable('content_items').set(values(r)), r.projectId, r.id).execute();
    },
    delete: (projectId, id) => isDeleted(whereRow(db.deleteFrom('content_items'), projectId, id)),
    async modelVersion(projectId) {
      const row = await db
        .selectFrom('model_versions')
        .select('version')
        .where('project_id', '=', projectId)
        .executeTakeFirst();
      return modelVersionOf(row?.version ?? null);
    },
  };
}

interface VariantBodyColumn {
  elements: VariantRecord['elements'];
  schedule: VariantRecord['schedule'];
  due_date: string | null;
  contributors: { id: string }[];
  note: string | null;
}

function toVariant(row: Selectable<ContentVariantsTable>): VariantRecord {
  const body = row.body as unknown as VariantBodyColumn;
  return {
    projectId: row.project_id,
    itemId: row.item_id,
    languageId: row.language_id,
    typeId: row.type_id,
    workflowId: row.workflow_id,
    stepId: row.step_id,
    lastModified: new Date(row.last_modified),
    elements: body.elements,
    schedule: body.schedule,
    dueDate: body.due_date,
    contributors: body.contributors,
    note: body.note,
    published: row.published as unknown as VariantRecord['published'],
  };
}

/** The columns a VariantRecord is read from. */
const variantColumns = [
  'content_variants.project_id',
  'content_variants.item_id',
  'content_variants.language_id',
  'content_variants.type_id',
  'content_variants.workflow_id',
  'content_variants.step_id',
  'content_variants.position',
  'content_variants.last_modified',
  'content_variants.body',
  'content_variants.published',
] as const;

/** `save` on every variant write, as text built once: an upsert of the whole row. */
const saveVariantText = insertRow(
  'content_variants',
  ['project_id', 'item_id', 'language_id', 'type_id', 'workflow_id', 'step_id', 'last_modified', 'body', 'published'],
  `on conflict ("project_id", "item_id", "language_id") do update set ${[
    'type_id',
    'workflow_id',
    'step_id',
    'last_modified',
    'body',
    'published',
  ]
    .map((c) => `"${c}" = excluded."${c}"`)
    .join(', ')}`,
);

export function variantRepository(db: Kysely<Database>): VariantRepository {
  const select = (projectId: string) =>
    db.selectFrom('content_variants').select(variantColumns).where('content_variants.project_id', '=', projectId);
  return {
    async find(projectId, itemId, languageId, options = {}) {
      const row = await firstRow(
        select(projectId).where('item_id', '=', itemId).where('language_id', '=', languageId),
        options,
      );
      return row ? toVariant(row) : null;
    },
    async findForWrite(projectId, itemId, languageId) {
      // One round trip: the variant (locked; absent or not) and its latest version, which exists
      // for an absent variant too when it was deleted and is now created again.
      const columns = sql.join(variantColumns.map((c) => sql.ref(c.replace('content_variants.', ''))));
      const latest = latestVersionJson({
        projectId: sql`${projectId}`,
        itemId: sql`${itemId}`,
        languageId: sql`${languageId}`,
      });
      const { rows } = await sql<
        Selectable<ContentVariantsTable> & { latest_version: Record<string, unknown> | null; found: boolean | null }
      >`
        select v.*, v.project_id is not null as found, ${latest} as latest_version
        from (select 1) one
        left join lateral (
          select ${columns} from content_variants
          where project_id = ${projectId} and item_id = ${itemId} and language_id = ${languageId}
          for update
        ) v on true`.execute(db);
      const row = rows[0];
      const latestVersion = row?.latest_version ? versionFromJson(row.latest_version) : null;
      if (!row?.found) return { variant: null, latestVersion };
      const { latest_version: _latest, found: _found, ...variant } = row;
      return { variant: toVariant(variant), latestVersion };
    },
    async listByItem(projectId, itemId) {
      return (await select(projectId).where('item_id', '=', itemId).orderBy('position').execute()).map(toVariant);
    },
    async listByItems(projectId, itemIds) {
      if (itemIds.length === 0) return [];
      const rows = await select(projectId)
        .where('item_id', 'in', [...itemIds])
        .orderBy('position')
        .execute();
      return rows.map(toVariant);
    },
    async findManyInLanguage(projectId, languageId, itemIds) {
      if (itemIds.length === 0) return [];
      const rows = await select(projectId)
        .where('language_id', '=', languageId)
        .where('item_id', 'in', [...itemIds])
        .execute();
      return rows.map(toVariant);
    },
    filterPage(projectId, query, request) {
      return filterVariantPage(db, projectId, query, request);
    },
    async countInWorkflow(projectId, workflowId, stepIds) {
      let query = db
        .selectFrom('content_variants')
        .select((eb) => eb.fn.countAll<string>().as('count'))
        .where('project_id', '=', projectId)
        .where('workflow_id', '=', workflowId);
      if (stepIds) {
        if (stepIds.length === 0) return 0;
        query = query.where('step_id', 'in', [...stepIds]);
      }
      return Number((await query.executeTakeFirstOrThrow()).count);
    },
    pageByType(projectId, typeId, request) {
      return positionPage(db, { query: select(projectId).where('type_id', '=', typeId), request, map: toVariant });
    },
    pageWithComponentsOfType(projectId, typeId, request) {
      // A walk of the project's variants in position order, testing each latest version with a
      // JSON path over its rich text components (nested ones too); it stops once the page is full.
      const query = select(projectId).where(
        sql<boolean>`jsonb_path_exists(content_variants.body, '$.elements.**.components[*] ? (@.type.id == $t)', jsonb_build_object('t', ${typeId}::text))`,
      );
      return positionPage(db, { query, request, map: toVariant });
    },
    async pageByCollections(projectId, collectionIds, { after, limit }) {
      // One query per collection from the token's one on, each an index walk in position order
      // that stops once the page (and the one row beyond it) is full.
      const found: { key: number[]; row: Selectable<ContentVariantsTable> }[] = [];
      for (let ordinal = after?.[0] ?? 0; ordinal < collectionIds.length && found.length <= limit; ordinal++) {
        let query = select(projectId)
          .innerJoin('content_items as i', (j) =>
            j.onRef('i.project_id', '=', 'content_variants.project_id').onRef('i.id', '=', 'content_variants.item_id'),
          )
          .where('i.collection_id', '=', collectionIds[ordinal] as string);
        if (after && ordinal === after[0]) query = query.where('content_variants.position', '>', after[1] ?? 0);
        const rows = await inKeyOrder(db, () =>
          query
            .orderBy('content_variants.position')
            .limit(limit + 1 - found.length)
            .execute(),
        );
        for (const row of rows) found.push({ key: [ordinal, positionOf(row)], row });
      }
      return keyedPage(found, { limit, keyOf: (f) => f.key, map: (f) => toVariant(f.row) });
    },
    async save(r) {
      const body: VariantBodyColumn = {
        elements: r.elements,
        schedule: r.schedule,
        due_date: r.dueDate,
        contributors: [...r.contributors],
        note: r.note,
      };
      const values = {
        type_id: r.typeId,
        workflow_id: r.workflowId,
        step_id: r.stepId,
        last_modified: r.lastModified,
        body: JSON.stringify(body),
        published: r.published === null ? null : JSON.stringify(r.published),
      };
      await run(db, saveVariantText, [
        r.projectId,
        r.itemId,
        r.languageId,
        values.type_id,
        values.workflow_id,
        values.step_id,
        values.last_modified,
        values.body,
        values.published,
      ]);
    },
    delete: (projectId, itemId, languageId) =>
      isDeleted(
        db
          .deleteFrom('content_variants')
          .where('project_id', '=', projectId)
          .where('item_id', '=', itemId)
          .where('language_id', '=', languageId),
      ),
  };
}

function toJob(row: Selectable<ScheduledJobsTable>): ScheduledJob {
  return {
    id: row.id,
    projectId: row.project_id,
    itemId: row.item_id,
    languageId: row.language_id,
    action: row.action as ScheduledJob['action'],
    dueAt: new Date(row.due_at),
  };
}

export function scheduledJobRepository(db: Kysely<Database>): ScheduledJobRepository {
  return {
    async insert(job) {
      await db
        .insertInto('scheduled_jobs')
        .values({
          id: job.id,
          project_id: job.projectId,
          item_id: job.itemId,
          language_id: job.languageId,
          action: job.action,
          due_at: job.dueAt,
        })
        .execute();
    },
    async cancel({ projectId, itemId, languageId, action }) {
      let unheld = db
        .selectFrom('scheduled_jobs')
        .select('id')
        .where('project_id', '=', projectId)
        .where('item_id', '=', itemId)
        .where('language_id', '=', languageId);
      if (action !== undefined) unheld = unheld.where('action', '=', action);
      await db.deleteFrom('scheduled_jobs').where('id', 'in', unheld.forUpdate().skipLocked()).execute();
    },
    async claimDue(now) {
      const row = await db
        .selectFrom('scheduled_jobs')
        .selectAll()
        .where('due_at', '<=', now)
        .orderBy('due_at')
        .orderBy('id')
        .limit(1)
        .forUpdate()
        .skipLocked()
        .executeTakeFirst();
      return row ? toJob(row) : null;
    },
    async delete(id) {
      await db.deleteFrom('scheduled_jobs').where('id', '=', id).execute();
    },
  };
}
