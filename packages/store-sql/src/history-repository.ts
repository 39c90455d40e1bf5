import { sql, type Kysely, type RawBuilder, type Selectable } from 'kysely';
import type { StoredVersion, VariantHistoryRepository, VariantRef, VersionInterface, VersionMeta } from '@lectern/core';
import { keyedPage } from './keyset.ts';
import { insertRow, run } from './prepared-text.ts';
import type { Database, VariantVersionsTable } from './schema.ts';

function toVersion(row: Selectable<VariantVersionsTable>): StoredVersion {
  return {
    id: row.id,
    projectId: row.project_id,
    itemId: row.item_id,
    languageId: row.language_id,
    seq: Number(row.seq),
    baseSeq: Number(row.base_seq),
    isSnapshot: row.is_snapshot,
    createdAt: new Date(row.created_at),
    userId: row.user_id,
    via: row.via as VersionInterface,
    operation: row.operation,
    workflowId: row.workflow_id,
    stepId: row.step_id,
    isPublished: row.is_published,
    publishedVersionId: row.published_version_id,
    changedElements: row.changed_elements,
    elements: row.elements as StoredVersion['elements'],
    meta: row.meta as unknown as VersionMeta,
    restoredFrom: row.restored_from,
  };
}

const listColumns = [
  'project_id',
  'item_id',
  'language_id',
  'seq',
  'id',
  'base_seq',
  'is_snapshot',
  'created_at',
  'user_id',
  'via',
  'operation',
  'workflow_id',
  'step_id',
  'is_published',
  'published_version_id',
  'changed_elements',
  'meta',
  'restored_from',
] as const;

/**
 * A scalar subquery: the metadata of the latest version of the variant `ref` names (values of
 * its columns, or of parameters) as JSON, its values left out as `latest` does; null when it has
 * none. Lets the read of a variant for update also answer `latest` in the same round trip.
 */
export function latestVersionJson(ref: {
  projectId: RawBuilder<unknown>;
  itemId: RawBuilder<unknown>;
  languageId: RawBuilder<unknown>;
}) {
  return sql<Record<string, unknown> | null>`(
    select jsonb_build_object(${sql.join(
      listColumns.map((c) => sql`${sql.lit(c)}::text, h.${sql.ref(c)}`),
      sql`, `,
    )}, 'elements', '{}'::jsonb)
    from variant_versions h
    where h.project_id = ${ref.projectId} and h.item_id = ${ref.itemId} and h.language_id = ${ref.languageId}
    order by h.seq desc limit 1)`;
}

/** A version from `latestVersionJson`'s object. */
export const versionFromJson = (json: Record<string, unknown>): StoredVersion =>
  toVersion(json as unknown as Selectable<VariantVersionsTable>);

/**
 * `insert` on every save, as text built once (the parameters in this order): the listed columns
 * with `elements` before the last two.
 */
const insertVersionText = insertRow('variant_versions', [
  ...listColumns.slice(0, -2),
  'elements',
  ...listColumns.slice(-2),
]);

/** The version history in `variant_versions` (migration 0019). */
export function variantHistoryRepository(db: Kysely<Database>): VariantHistoryRepository {
  const ofVariant = (ref: VariantRef) =>
    db
      .selectFrom('variant_versions')
      .selectAll()
      .where('project_id', '=', ref.projectId)
      .where('item_id', '=', ref.itemId)
      .where('language_id', '=', ref.languageId);
  const metadataOf = (ref: VariantRef) =>
    db
      .selectFrom('variant_versions')
      .select(listColumns)
      .select(sql<Record<string, unknown>>`'{}'::jsonb`.as('elements'))
      .where('project_id', '=', ref.projectId)
      .where('item_id', '=', ref.itemId)
      .where('language_id', '=', ref.languageId);
  return {
    async latest(ref) {
      // Read on every save: metadata only, so the newest snapshot's values are not read (nor detoasted).
      const row = await metadataOf(ref).orderBy('seq', 'desc').limit(1).executeTakeFirst();
      return row ? toVersion(row) : null;
    },
    async insert(v) {
      await run(db, insertVersionText, [
        v.projectId,
        v.itemId,
        v.languageId,
        v.seq,
        v.id,
        v.baseSeq,
        v.isSnapshot,
        v.createdAt,
        v.userId,
        v.via,
        v.operation,
        v.workflowId,
        v.stepId,
        v.isPublished,
        v.publishedVersionId,
        JSON.stringify(v.changedElements),
        JSON.stringify(v.elements),
        JSON.stringify(v.meta),
        v.restoredFrom,
      ]);
    },
    async get(ref, id) {
      const row = await ofVariant(ref).where('id', '=', id).executeTakeFirst();
      return row ? toVersion(row) : null;
    },
    async range(ref, fromSeq, toSeq) {
      const rows = await ofVariant(ref).where('seq', '>=', fromSeq).where('seq', '<=', toSeq).orderBy('seq').execute();
      return rows.map(toVersion);
    },
    async page(ref, { after, limit }) {
      // The list shows metadata only: the element values stay in the table (a page reads 50 small rows).
      let query = metadataOf(ref);
      if (after) query = query.where('seq', '<', after[0] ?? 0);
      const rows = await query
        .orderBy('seq', 'desc')
        .limit(limit + 1)
        .execute();
      return keyedPage(rows, { limit, keyOf: (row) => [Number(row.seq)], map: toVersion });
    },
    async markRestore(ref, id, restoredFrom) {
      await db
        .updateTable('variant_versions')
        .set({ operation: 'restore', restored_from: restoredFrom })
        .where('project_id', '=', ref.projectId)
        .where('item_id', '=', ref.itemId)
        .where('language_id', '=', ref.languageId)
        .where('id', '=', id)
        .execute();
    },
    async variantsToPrune({ before, keepVersions, limit }) {
      const found = new Map<string, VariantRef>();
      const add = (rows: { project_id: string; item_id: string; language_id: string }[]) => {
        for (const r of rows)
          found.set(`${r.project_id}/${r.item_id}/${r.language_id}`, {
            projectId: r.project_id,
            itemId: r.item_id,
            languageId: r.language_id,
          });
      };
      const pick = ['project_id', 'item_id', 'language_id'] as const;
      if (before) {
        // Variants with a version older than the cutoff that is neither the newest nor the
        // published one (those the retention keeps), so every variant listed has work to do.
        const result = await sql<{ project_id: string; item_id: string; language_id: string }>`
          select distinct v.project_id, v.item_id, v.language_id
          from variant_versions v
          join lateral (
            select n.seq, n.published_version_id from variant_versions n
            where n.project_id = v.project_id and n.item_id = v.item_id and n.language_id = v.language_id
            order by n.seq desc limit 1
          ) newest on true
          where v.created_at < ${before} and v.seq < newest.seq and v.id is distinct from newest.published_version_id
          limit ${limit}`.execute(db);
        add(result.rows);
      }
      if (keepVersions !== null && found.size < limit)
        add(
          await db
            .selectFrom('variant_versions')
            .select([...pick])
            .groupBy([...pick])
            .having(sql<number>`count(*)`, '>', keepVersions + 1)
            .limit(limit - found.size)
            .execute(),
        );
      return [...found.values()];
    },
    async rewrite(ref, id, change) {
      await db
        .updateTable('variant_versions')
        .set({
          base_seq: change.baseSeq,
          is_snapshot: change.isSnapshot,
          ...(change.elements ? { elements: JSON.stringify(change.elements) } : {}),
        })
        .where('project_id', '=', ref.projectId)
        .where('item_id', '=', ref.itemId)
        .where('language_id', '=', ref.languageId)
        .where('id', '=', id)
        .execute();
    },
    async delete(ref, ids) {
      if (ids.length === 0) return 0;
      const result = await db
        .deleteFrom('variant_versions')
        .where('project_id', '=', ref.projectId)
        .where('item_id', '=', ref.itemId)
        .where('language_id', '=', ref.languageId)
        .where('id', 'in', ids)
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
