import { sql, type Kysely } from 'kysely';

/**
 * The journal of uploads in flight (issue 27, finding 14): a row is written before an upload's
 * first byte reaches the blob store and removed in the transaction that records the file, or
 * after a refused upload's bytes are removed. A row that outlives its upload by hours marks
 * bytes a crash left behind, which a later upload's sweep removes. No foreign key: the row must
 * outlive a deleted project until its bytes are gone.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('pending_uploads')
    .addColumn('blob_key', 'text', (c) => c.primaryKey())
    .addColumn('project_id', 'uuid', (c) => c.notNull())
    .addColumn('started_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await sql`create index pending_uploads_started on pending_uploads (started_at)`.execute(db);
}
