import { sql, type Kysely } from 'kysely';

/**
 * Issue 35: creating an item with a generated codename reads the codenames that start with the
 * one generated from its name (`items.codenamesStartingWith`). `left(codename, n) = prefix` can
 * use no index, so every create read all of the project's items: seeding 100,000 items through
 * the API grew quadratically. Under the "C" collation (byte order) the strings that start with a
 * prefix form one range, which this index serves whatever the database's collation is.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index content_items_codename_bytes on content_items (project_id, (codename collate "C"))`.execute(
    db,
  );
}
