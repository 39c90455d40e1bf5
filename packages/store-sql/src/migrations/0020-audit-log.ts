import { sql, type Kysely } from 'kysely';

/**
 * The audit log (issue 31): one row per change, written in the change's transaction. Append-only:
 * a trigger refuses every UPDATE and TRUNCATE, and every DELETE but the retention pruning's, which
 * sets `lectern.audit_prune` for its own transaction only (`set local`). No foreign keys: the
 * entries of a deleted project, user or key stay. No index on the time: every index costs each
 * write, and pruning walks the primary key from the oldest entry instead (ids follow commit order).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('audit_log')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('project_id', 'uuid')
    .addColumn('occurred_at', 'timestamptz', (c) => c.notNull())
    .addColumn('actor_type', 'text', (c) => c.notNull())
    .addColumn('actor_user_id', 'uuid')
    .addColumn('actor_key_id', 'uuid')
    .addColumn('via', 'text', (c) => c.notNull())
    .addColumn('request_id', 'text')
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('object_kind', 'text', (c) => c.notNull())
    .addColumn('object_id', 'text')
    .addColumn('object_codename', 'text')
    .addColumn('language_id', 'text')
    .addColumn('language_codename', 'text')
    .addColumn('summary', 'jsonb', (c) => c.notNull())
    .execute();
  await sql`create index audit_log_project on audit_log (project_id, id)`.execute(db);
  await sql`create index audit_log_user on audit_log (project_id, actor_user_id, id)`.execute(db);
  await sql`create index audit_log_object on audit_log (project_id, object_id, id)`.execute(db);
  await sql`
    create function audit_log_append_only() returns trigger language plpgsql as $$
    begin
      if tg_op = 'DELETE' and current_setting('lectern.audit_prune', true) = 'on' then
        return old;
      end if;
      raise exception 'the audit log is append-only (% refused)', tg_op using errcode = 'insufficient_privilege';
    end
    $$`.execute(db);
  await sql`
    create trigger audit_log_no_change before update or delete on audit_log
    for each row execute function audit_log_append_only()`.execute(db);
  await sql`
    create trigger audit_log_no_truncate before truncate on audit_log
    for each statement execute function audit_log_append_only()`.execute(db);
}
