import { sql, type Kysely } from 'kysely';

/**
 * Comments on language variants (issue 31): threads on an element (with an optional text anchor
 * on a rich text selection, as JSON) and their comments. They go with their item (deleting the
 * item deletes them) and with their project; an author or mentioned user who is removed takes
 * their comments along (users are never removed today; the cascade keeps the rows consistent).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('comment_threads')
    // Creation order, also between rows created in the same millisecond.
    .addColumn('position', 'bigint', (c) => c.generatedAlwaysAsIdentity())
    .addColumn('project_id', 'uuid', (c) => c.notNull())
    .addColumn('id', 'uuid', (c) => c.notNull())
    .addColumn('item_id', 'uuid', (c) => c.notNull())
    .addColumn('language_id', 'uuid', (c) => c.notNull())
    .addColumn('element_id', 'uuid', (c) => c.notNull())
    .addColumn('anchor', 'jsonb')
    .addColumn('created_by', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('resolved_at', 'timestamptz')
    .addColumn('resolved_by', 'uuid', (c) => c.references('users.id').onDelete('set null'))
    .addPrimaryKeyConstraint('comment_threads_pk', ['project_id', 'id'])
    .addForeignKeyConstraint(
      'comment_threads_item',
      ['project_id', 'item_id'],
      'content_items',
      ['project_id', 'id'],
      (fk) => fk.onDelete('cascade'),
    )
    .execute();
  await sql`create index comment_threads_variant on comment_threads (project_id, item_id, language_id, position)`.execute(
    db,
  );
  await db.schema
    .createTable('comments')
    .addColumn('position', 'bigint', (c) => c.generatedAlwaysAsIdentity())
    .addColumn('project_id', 'uuid', (c) => c.notNull())
    .addColumn('id', 'uuid', (c) => c.notNull())
    .addColumn('thread_id', 'uuid', (c) => c.notNull())
    .addColumn('author_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('mentions', 'jsonb', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('last_modified', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('comments_pk', ['project_id', 'id'])
    .addForeignKeyConstraint(
      'comments_thread',
      ['project_id', 'thread_id'],
      'comment_threads',
      ['project_id', 'id'],
      (fk) => fk.onDelete('cascade'),
    )
    .execute();
  await sql`create index comments_thread on comments (project_id, thread_id, position)`.execute(db);
}
