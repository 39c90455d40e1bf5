import { sql, type Kysely } from 'kysely';

/**
 * Presence (issue 31): `presence`, one row per open editor tab (user, tab id) with the variant it
 * shows, the element being edited and its last heartbeat; read by every replica, expired by time.
 * `variant_last_saves`: the person whose save made a variant's current version (the conflict view
 * says who changed it). Both go with their item and their user.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('presence')
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('client_id', 'uuid', (c) => c.notNull())
    .addColumn('project_id', 'uuid', (c) => c.notNull())
    .addColumn('item_id', 'uuid', (c) => c.notNull())
    .addColumn('language_id', 'uuid', (c) => c.notNull())
    .addColumn('element', 'text')
    .addColumn('seen_at', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('presence_pk', ['user_id', 'client_id'])
    .addForeignKeyConstraint('presence_item', ['project_id', 'item_id'], 'content_items', ['project_id', 'id'], (c) =>
      c.onDelete('cascade'),
    )
    .execute();
  await sql`create index presence_variant on presence (project_id, item_id, language_id, seen_at)`.execute(db);
  await sql`create index presence_seen on presence (seen_at)`.execute(db);
  await db.schema
    .createTable('variant_last_saves')
    .addColumn('project_id', 'uuid', (c) => c.notNull())
    .addColumn('item_id', 'uuid', (c) => c.notNull())
    .addColumn('language_id', 'uuid', (c) => c.notNull())
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('saved_at', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('variant_last_saves_pk', ['project_id', 'item_id', 'language_id'])
    .addForeignKeyConstraint(
      'variant_last_saves_item',
      ['project_id', 'item_id'],
      'content_items',
      ['project_id', 'id'],
      (c) => c.onDelete('cascade'),
    )
    .execute();
}
