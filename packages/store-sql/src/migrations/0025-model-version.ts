import { sql, type Kysely } from 'kysely';

/**
 * Issue 35: a version of each project's content model, so a server may keep the model it read
 * (languages, types, snippets, workflows, roles) in memory and know, in a statement it sends
 * anyway, whether that copy is still the latest.
 *
 * Every write to `model_objects` (the whole model, project users and their roles included) sets
 * the project's `model_versions.version` to a new value of a sequence. Values never repeat, even
 * after the table is emptied, so a stale copy can never match a later version. The trigger is
 * deferred to commit: the bump commits atomically with the change, and the row lock it takes is
 * taken last in the transaction (after every model row it locked), so it adds no lock-order
 * deadlock between model writers. No foreign key: a project's deletion leaves its row, harmless.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create sequence model_version_seq`.execute(db);
  await sql`create table model_versions (
    project_id uuid primary key,
    version int8 not null
  )`.execute(db);
  await sql`insert into model_versions (project_id, version)
    select project_id, nextval('model_version_seq') from (select distinct project_id from model_objects) p`.execute(db);
  await sql`
    create function lectern_bump_model_version() returns trigger language plpgsql as $$
    begin
      insert into model_versions (project_id, version)
      values (coalesce(new.project_id, old.project_id), nextval('model_version_seq'))
      on conflict (project_id) do update set version = excluded.version;
      return null;
    end $$`.execute(db);
  await sql`create constraint trigger model_objects_version after insert or update or delete on model_objects
    deferrable initially deferred for each row execute function lectern_bump_model_version()`.execute(db);
}
