import type { Kysely } from 'kysely';

/**
 * The allowed content types of restricted linked items, subpages and rich text elements, kept
 * beside the model's Delivery JSON (which does not show them) for GraphQL's per-element unions:
 * JSON text of `TypeLinks`; null for models indexed before, which get no unions until re-indexed.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('delivery_models').addColumn('type_links', 'text').execute();
}
