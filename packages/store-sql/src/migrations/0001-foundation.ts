import { sql, type Kysely } from 'kysely';

/** Projects, users, API keys and the outbox. Forward-only: there is no `down`. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('projects')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('environment', 'text', (c) => c.notNull())
    .addColumn('is_secure_access', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('users')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('email', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('api_keys')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('project_id', 'uuid', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('owner_user_id', 'uuid', (c) => c.references('users.id'))
    .addColumn('secret_hash', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz')
    .addColumn('revoked_at', 'timestamptz')
    .addCheckConstraint(
      'api_keys_kind',
      sql`kind in ('management', 'delivery_primary', 'delivery_secondary', 'preview_primary', 'preview_secondary', 'recommendations')`,
    )
    .execute();
  // One active key per slot: per (project, kind), and per user for management keys.
  await sql`create unique index api_keys_active_slot on api_keys
    (project_id, kind, coalesce(owner_user_id, '00000000-0000-0000-0000-000000000000'::uuid))
    where revoked_at is null`.execute(db);

  await db.schema
    .createTable('project_sequences')
    .addColumn('project_id', 'uuid', (c) => c.primaryKey().references('projects.id').onDelete('cascade'))
    .addColumn('last_seq', 'int8', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('outbox_events')
    .addColumn('project_id', 'uuid', (c) => c.notNull())
    .addColumn('seq', 'int8', (c) => c.notNull())
    .addColumn('object_kind', 'text', (c) => c.notNull())
    .addColumn('operation', 'text', (c) => c.notNull())
    .addColumn('object_id', 'text')
    .addColumn('channel', 'text', (c) => c.notNull())
    .addColumn('payload', 'jsonb', (c) => c.notNull())
    .addColumn('occurred_at', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('outbox_events_pk', ['project_id', 'seq'])
    .execute();
}
