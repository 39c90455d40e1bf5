import type { Kysely } from 'kysely';

/** Tables of binary files, assets and asset folders. */
export async function up(_db: Kysely<unknown>): Promise<void> {}
