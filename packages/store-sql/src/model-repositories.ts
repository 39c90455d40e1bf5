import { sql, type Kysely, type Selectable } from 'kysely';
import type { ModelKind, ModelRecord, ModelRepository, RateLimitRepository, RecordKey } from '@lectern/core';
import type { Database, ModelObjectsTable } from './schema.ts';
import { firstRow, isDeleted, whereKey, whereRow } from './project-rows.ts';

function toRecord<B extends object>(row: Selectable<ModelObjectsTable>): ModelRecord<B> {
  return {
    projectId: row.project_id,
    kind: row.kind as ModelKind,
    id: row.id,
    codename: row.codename,
    externalId: row.external_id,
    body: row.body as B,
    lastModified: new Date(row.last_modified),
  };
}

export function modelRepository(db: Kysely<Database>): ModelRepository {
  const select = (projectId: string, kind: ModelKind) =>
    db.selectFrom('model_objects').selectAll().where('project_id', '=', projectId).where('kind', '=', kind);
  return {
    async list<B extends object>(projectId: string, kind: ModelKind) {
      const rows = await select(projectId, kind).orderBy('position').execute();
      return rows.map((r) => toRecord<B>(r));
    },
    async findMany<B extends object>(projectId: string, kind: ModelKind, ids: readonly string[]) {
      if (ids.length === 0) return [];
      const rows = await select(projectId, kind)
        .where('id', 'in', [...ids])
        .execute();
      return rows.map((r) => toRecord<B>(r));
    },
    async find<B extends object>(
      projectId: string,
      kind: ModelKind,
      key: RecordKey,
      options: { isForUpdate?: boolean } = {},
    ) {
      const row = await firstRow(whereKey(select(projectId, kind), key), options);
      return row ? toRecord<B>(row) : null;
    },
    async insert(r) {
      await db
        .insertInto('model_objects')
        .values({
          project_id: r.projectId,
          kind: r.kind,
          id: r.id,
          codename: r.codename,
          external_id: r.externalId,
          body: JSON.stringify(r.body),
          last_modified: r.lastModified,
        })
        .execute();
    },
    async update(r) {
      const values = {
        codename: r.codename,
        external_id: r.externalId,
        body: JSON.stringify(r.body),
        last_modified: r.lastModified,
      };
      await whereRow(
        db.updateTable('model_objects').set(values).where('kind', '=', r.kind),
        r.projectId,
        r.id,
      ).execute();
    },
    delete: (projectId, kind, id) =>
      isDeleted(whereRow(db.deleteFrom('model_objects').where('kind', '=', kind), projectId, id)),
    async lockKind(projectId, kind) {
      await sql`select pg_advisory_xact_lock(hashtext(${`${projectId}/${kind}`}))`.execute(db);
    },
  };
}

export function rateLimitRepository(db: Kysely<Database>): RateLimitRepository {
  return {
    async hit(keyId, windowsMs, now, amount = 1) {
      const t = now.getTime();
      const rows = await db
        .insertInto('rate_limit_hits')
        .values(windowsMs.map((ms) => ({ key_id: keyId, window_ms: ms, window_start: t - (t % ms), hits: amount })))
        .onConflict((oc) =>
          oc
            .columns(['key_id', 'window_ms', 'window_start'])
            .doUpdateSet({ hits: sql`rate_limit_hits.hits + ${amount}` }),
        )
        .returning(['window_ms', 'hits'])
        .execute();
      return windowsMs.map((ms) => rows.find((r) => Number(r.window_ms) === ms)?.hits ?? 0);
    },
    async purge(before) {
      await db
        .deleteFrom('rate_limit_hits')
        .where(sql<boolean>`window_start + window_ms < ${before.getTime()}`)
        .execute();
    },
  };
}
