import type { Kysely } from 'kysely';

/** Tables of content items and language variants (with their published and scheduled versions). */
export async function up(_db: Kysely<unknown>): Promise<void> {}
