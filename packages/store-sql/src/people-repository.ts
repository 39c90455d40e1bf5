import type { Kysely, Selectable } from 'kysely';
import type { PeopleRepository, PersonLink, PersonLinkPurpose, PersonSession } from '@lectern/core';
import type { Database, PersonLinksTable, PersonSessionsTable } from './schema.ts';

function toLink(row: Selectable<PersonLinksTable>): PersonLink {
  return {
    tokenHash: row.token_hash,
    userId: row.user_id,
    projectId: row.project_id,
    purpose: row.purpose as PersonLinkPurpose,
    createdAt: new Date(row.created_at),
    expiresAt: new Date(row.expires_at),
    usedAt: row.used_at === null ? null : new Date(row.used_at),
  };
}

function toSession(row: Selectable<PersonSessionsTable>): PersonSession {
  return {
    idHash: row.id_hash,
    userId: row.user_id,
    csrfToken: row.csrf_token,
    createdAt: new Date(row.created_at),
    lastUsedAt: new Date(row.last_used_at),
  };
}

export function peopleRepository(db: Kysely<Database>): PeopleRepository {
  return {
    async passwordHash(userId) {
      const row = await db
        .selectFrom('person_passwords')
        .select('hash')
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return row?.hash ?? null;
    },
    async setPasswordHash({ userId, hash, at }) {
      await db
        .insertInto('person_passwords')
        .values({ user_id: userId, hash, updated_at: at })
        .onConflict((oc) => oc.column('user_id').doUpdateSet({ hash, updated_at: at }))
        .execute();
    },
    async insertLink(link) {
      await db
        .insertInto('person_links')
        .values({
          token_hash: link.tokenHash,
          user_id: link.userId,
          project_id: link.projectId,
          purpose: link.purpose,
          created_at: link.createdAt,
          expires_at: link.expiresAt,
          used_at: link.usedAt,
        })
        .execute();
    },
    async findLink(tokenHash) {
      const row = await db
        .selectFrom('person_links')
        .selectAll()
        .where('token_hash', '=', tokenHash)
        .executeTakeFirst();
      return row ? toLink(row) : null;
    },
    async useLink(tokenHash, at) {
      // One conditional update: concurrent acceptances of one link serialize on its row.
      const result = await db
        .updateTable('person_links')
        .set({ used_at: at })
        .where('token_hash', '=', tokenHash)
        .where('used_at', 'is', null)
        .where('expires_at', '>', at)
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },
    async retireLinksOfUser(userId, at) {
      const result = await db
        .updateTable('person_links')
        .set({ used_at: at })
        .where('user_id', '=', userId)
        .where('used_at', 'is', null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows);
    },
    async insertSession(s) {
      await db
        .insertInto('person_sessions')
        .values({
          id_hash: s.idHash,
          user_id: s.userId,
          csrf_token: s.csrfToken,
          created_at: s.createdAt,
          last_used_at: s.lastUsedAt,
        })
        .execute();
    },
    async findSession(idHash) {
      const row = await db.selectFrom('person_sessions').selectAll().where('id_hash', '=', idHash).executeTakeFirst();
      return row ? toSession(row) : null;
    },
    async touchSession(idHash, at) {
      await db.updateTable('person_sessions').set({ last_used_at: at }).where('id_hash', '=', idHash).execute();
    },
    async deleteSession(idHash) {
      const result = await db.deleteFrom('person_sessions').where('id_hash', '=', idHash).executeTakeFirst();
      return result.numDeletedRows > 0n;
    },
    async deleteSessionsOfUser(userId) {
      const result = await db.deleteFrom('person_sessions').where('user_id', '=', userId).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
    async deleteSessionsIdleSince(before) {
      const result = await db.deleteFrom('person_sessions').where('last_used_at', '<', before).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
