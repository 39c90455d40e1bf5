import type { Kysely } from 'kysely';

/** Tables of the SQL delivery index (packages/index-sql): documents, watermarks, sync changes. */
export async function up(_db: Kysely<unknown>): Promise<void> {}
