import { sql, type Kysely } from 'kysely';

/**
 * Issue 35: events appended at the end of a transaction (`outbox.appendAtCommit`) are numbered by
 * PostgreSQL while it commits, not by a statement before the commit.
 *
 * The project's counter row is locked from the moment a write numbers its events until its commit
 * ends, so writers of one project take turns there. Numbered by a statement, the lock was held
 * across two round trips to the server (the statement's answer, then the COMMIT it sends once its
 * event loop gets to it): with 16 clients upserting variants of one project, about four of the ten
 * connections waited on that row and three more sat idle in transaction, while PostgreSQL's
 * processes were on the CPU a third of the time. Now the transaction inserts its events as one
 * pending row; a deferred trigger numbers them at commit (the counter's lock is taken last and held
 * only through the commit's flush), moves them to `outbox_events`, announces them as the statement
 * did, and removes the pending row. Sequences stay gap-free and in commit order.
 *
 * The announcement's channel is `channelOf('committed')` (signals.ts), spelled out here because a
 * migration never changes.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table outbox_pending (
    id int8 generated always as identity primary key,
    project_id uuid not null,
    events jsonb not null,
    occurred_at timestamptz not null
  )`.execute(db);
  await sql`
    create function lectern_number_events() returns trigger language plpgsql as $$
    declare
      n int8 := jsonb_array_length(new.events);
      last int8;
    begin
      insert into project_sequences (project_id, last_seq) values (new.project_id, n)
        on conflict (project_id) do update set last_seq = project_sequences.last_seq + n
        returning last_seq into last;
      insert into outbox_events (project_id, seq, object_kind, operation, object_id, channel, payload, occurred_at)
        select new.project_id, last - n + e.ord, e.value->>'object_kind', e.value->>'operation',
               e.value->>'object_id', e.value->>'channel', e.value->'payload', new.occurred_at
        from jsonb_array_elements(new.events) with ordinality as e(value, ord);
      delete from outbox_pending where id = new.id;
      perform pg_notify('lectern_committed', new.project_id::text || ':' || last);
      return null;
    end $$`.execute(db);
  await sql`create constraint trigger outbox_pending_number after insert on outbox_pending
    deferrable initially deferred for each row execute function lectern_number_events()`.execute(db);
}
