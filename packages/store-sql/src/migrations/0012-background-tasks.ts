import { sql, type Kysely } from 'kysely';

/**
 * Background tasks (issue 20): work a request starts and any Management process finishes
 * (content validation, environment cloning). A runner claims a task that is queued, or running
 * under a lease that ran out (its runner stopped), by setting `lease_owner` and `lease_until`;
 * every step of the work commits with the task's new `state` (where a resumed run continues) and
 * progress, and only while `lease_owner` is still the claimer's. Tasks go with their project.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('background_tasks')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('project_id', 'uuid', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('input', 'jsonb', (c) => c.notNull())
    .addColumn('state', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('queued', 'running', 'finished', 'failed')`))
    .addColumn('progress_done', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('progress_total', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('lease_owner', 'text')
    .addColumn('lease_until', 'timestamptz')
    .addColumn('error', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .execute();
  // Runners look for open tasks only: a partial index stays small however many tasks finished.
  await sql`create index background_tasks_open on background_tasks (created_at)
    where status in ('queued', 'running')`.execute(db);
  await db.schema.createIndex('background_tasks_project').on('background_tasks').column('project_id').execute();
}
