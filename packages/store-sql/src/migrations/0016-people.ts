import { sql, type Kysely } from 'kysely';

/**
 * People who sign in to the editor (issue 28): password hashes (argon2id PHC strings), one-time
 * links (invite, reset) and sessions, each found by the digest of its random token. Everything of
 * a user goes with the user; a link issued for a project goes with the project.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('person_passwords')
    .addColumn('user_id', 'uuid', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('hash', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('person_links')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('project_id', 'uuid', (c) => c.references('projects.id').onDelete('cascade'))
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('used_at', 'timestamptz')
    .addCheckConstraint('person_links_purpose', sql`purpose in ('invite', 'reset')`)
    .execute();
  await sql`create index person_links_user on person_links (user_id)`.execute(db);
  await db.schema
    .createTable('person_sessions')
    .addColumn('id_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('csrf_token', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('last_used_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await sql`create index person_sessions_user on person_sessions (user_id)`.execute(db);
  await sql`create index person_sessions_last_used on person_sessions (last_used_at)`.execute(db);
}
