import type { Kysely, Selectable } from 'kysely';
import type { ImageCacheEntry, ImageCacheRepository } from '@lectern/core';
import type { Database, ImageCacheEntriesTable } from './schema.ts';

function toEntry(row: Selectable<ImageCacheEntriesTable>): ImageCacheEntry {
  return {
    projectId: row.project_id,
    key: row.cache_key,
    fileId: row.file_id,
    contentType: row.content_type,
    bytes: Number(row.bytes),
    lastUsedAt: new Date(row.last_used_at),
  };
}

export function imageCacheRepository(db: Kysely<Database>): ImageCacheRepository {
  return {
    async get(projectId, key) {
      const row = await db
        .selectFrom('image_cache_entries')
        .selectAll()
        .where('project_id', '=', projectId)
        .where('cache_key', '=', key)
        .executeTakeFirst();
      return row ? toEntry(row) : null;
    },
    async put(e) {
      const values = {
        project_id: e.projectId,
        cache_key: e.key,
        file_id: e.fileId,
        content_type: e.contentType,
        bytes: e.bytes,
        last_used_at: e.lastUsedAt,
      };
      await db
        .insertInto('image_cache_entries')
        .values(values)
        .onConflict((oc) =>
          oc.columns(['project_id', 'cache_key']).doUpdateSet({
            file_id: values.file_id,
            content_type: values.content_type,
            bytes: values.bytes,
            last_used_at: values.last_used_at,
          }),
        )
        .execute();
    },
    async touch(projectId, key, at) {
      await db
        .updateTable('image_cache_entries')
        .set({ last_used_at: at })
        .where('project_id', '=', projectId)
        .where('cache_key', '=', key)
        .execute();
    },
    async totalBytes(projectId) {
      const row = await db
        .selectFrom('image_cache_entries')
        .select((eb) => eb.fn.coalesce(eb.fn.sum<string | number>('bytes'), eb.lit(0)).as('total'))
        .where('project_id', '=', projectId)
        .executeTakeFirstOrThrow();
      return Number(row.total);
    },
    async leastRecentlyUsed(projectId, limit) {
      const rows = await db
        .selectFrom('image_cache_entries')
        .selectAll()
        .where('project_id', '=', projectId)
        .orderBy('last_used_at')
        .orderBy('cache_key')
        .limit(limit)
        .execute();
      return rows.map(toEntry);
    },
    async delete(projectId, keys) {
      if (keys.length === 0) return;
      await db
        .deleteFrom('image_cache_entries')
        .where('project_id', '=', projectId)
        .where('cache_key', 'in', [...keys])
        .execute();
    },
  };
}
