import { sql, type Kysely } from 'kysely';

/**
 * Management lists page by key (issue 11): a page reads the rows after the last `position` of the
 * previous one, in `position` order (creation order; identity values, so unique and never reused).
 * These indexes let a page start there with an index seek, whatever page it is. The index of
 * variants by type gains `position`, replacing the one without it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create unique index content_items_position on content_items (project_id, position)`.execute(db);
  await sql`create unique index content_variants_position on content_variants (project_id, position)`.execute(db);
  await sql`create index content_variants_type_position on content_variants (project_id, type_id, position)`.execute(
    db,
  );
  await sql`drop index content_variants_type`.execute(db);
  await sql`create unique index assets_position on assets (project_id, position)`.execute(db);
}
