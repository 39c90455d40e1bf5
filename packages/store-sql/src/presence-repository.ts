import { sql, type Kysely } from 'kysely';
import type { PresenceRepository } from '@lectern/core';
import type { Database } from './schema.ts';

/** Presence rows and last saves on PostgreSQL and PGlite (migration 0022). */
export function presenceRepository(db: Kysely<Database>): PresenceRepository {
  return {
    async beat(beat, limits) {
      const notBefore = new Date(beat.at.getTime() - limits.minIntervalMs);
      // One statement: insert, or move the tab's row unless it was written too recently.
      const written = await db
        .insertInto('presence')
        .values({
          user_id: beat.userId,
          client_id: beat.clientId,
          project_id: beat.projectId,
          item_id: beat.itemId,
          language_id: beat.languageId,
          element: beat.element,
          seen_at: beat.at,
        })
        .onConflict((oc) =>
          oc
            .columns(['user_id', 'client_id'])
            .doUpdateSet({
              project_id: beat.projectId,
              item_id: beat.itemId,
              language_id: beat.languageId,
              element: beat.element,
              seen_at: beat.at,
            })
            .where('presence.seen_at', '<=', notBefore),
        )
        .returning('client_id')
        .executeTakeFirst();
      if (written === undefined) return 'too_fast';
      // At most `maxPerUser` rows: the least recently seen others go.
      await sql`
        delete from presence where user_id = ${beat.userId} and client_id in (
          select client_id from presence where user_id = ${beat.userId}
          order by seen_at desc offset ${limits.maxPerUser}
        )`.execute(db);
      return 'stored';
    },
    async list({ projectId, itemId, languageId, since }) {
      const rows = await db
        .selectFrom('presence')
        .selectAll()
        .where('project_id', '=', projectId)
        .where('item_id', '=', itemId)
        .where('language_id', '=', languageId)
        .where('seen_at', '>=', since)
        .orderBy('seen_at')
        .limit(200)
        .execute();
      return rows.map((r) => ({
        userId: r.user_id,
        clientId: r.client_id,
        projectId: r.project_id,
        itemId: r.item_id,
        languageId: r.language_id,
        element: r.element,
        at: new Date(r.seen_at),
      }));
    },
    async leave({ userId, clientId }) {
      await db.deleteFrom('presence').where('user_id', '=', userId).where('client_id', '=', clientId).execute();
    },
    async purge(before) {
      const result = await db.deleteFrom('presence').where('seen_at', '<', before).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
    async recordSave({ projectId, itemId, languageId, userId, at }) {
      await db
        .insertInto('variant_last_saves')
        .values({ project_id: projectId, item_id: itemId, language_id: languageId, user_id: userId, saved_at: at })
        .onConflict((oc) =>
          oc.columns(['project_id', 'item_id', 'language_id']).doUpdateSet({ user_id: userId, saved_at: at }),
        )
        .execute();
    },
    async lastSave({ projectId, itemId, languageId }) {
      const row = await db
        .selectFrom('variant_last_saves')
        .select(['user_id', 'saved_at'])
        .where('project_id', '=', projectId)
        .where('item_id', '=', itemId)
        .where('language_id', '=', languageId)
        .executeTakeFirst();
      return row ? { userId: row.user_id, at: new Date(row.saved_at) } : null;
    },
  };
}
