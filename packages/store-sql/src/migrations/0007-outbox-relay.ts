import type { Kysely } from 'kysely';

/**
 * Relay progress of the outbox (DESIGN write path step 3): per project, the last sequence
 * published to the event bus, and a lease so that one relay at a time publishes a project.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('outbox_relay')
    .addColumn('project_id', 'uuid', (c) => c.primaryKey())
    .addColumn('relayed_seq', 'int8', (c) => c.notNull().defaultTo(0))
    .addColumn('lease_owner', 'text')
    .addColumn('lease_expires_at', 'timestamptz')
    .execute();
}
