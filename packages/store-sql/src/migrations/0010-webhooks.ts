import { sql, type Kysely } from 'kysely';

/**
 * Outgoing webhooks (issue 13): the registered webhooks, the durable notification queue, every
 * delivery attempt, and how far the webhook worker has turned each project's change events into
 * notifications.
 *
 * - `webhooks`: registration columns (name … reset_requested_at) and health columns (health …
 *   failure_mailed_at) written by separate parties; `lease_owner`/`lease_expires_at` let one
 *   worker replica at a time deliver a webhook's notifications, in order.
 * - `webhook_notifications`: one row per (webhook, event, notification kind) — the unique key makes
 *   a redelivered event a no-op. `ord` is the creation order a webhook's queue is delivered in.
 *   `state`: `pending` (waiting or retrying), `delivered`, `expired` (retried for 3 days, removed
 *   from the queue but kept for the debug list until it ages out).
 * - `webhook_attempts`: one row per notification per POST.
 * - `webhook_progress`: per project, the last event sequence turned into notifications.
 * - `key_expiry_notices`: management keys whose expiry e-mail (SPEC 3.2) has gone out.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('webhooks')
    .addColumn('project_id', 'uuid', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('id', 'uuid', (c) => c.notNull())
    .addColumn('format', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('headers', 'jsonb', (c) => c.notNull())
    .addColumn('triggers', 'jsonb', (c) => c.notNull())
    .addColumn('is_enabled', 'boolean', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('last_modified', 'timestamptz', (c) => c.notNull())
    .addColumn('from_seq', 'int8', (c) => c.notNull())
    .addColumn('reset_requested_at', 'timestamptz')
    .addColumn('health', 'text', (c) => c.notNull())
    .addColumn('failing_since', 'timestamptz')
    .addColumn('last_accepted_at', 'timestamptz')
    .addColumn('reset_handled_at', 'timestamptz')
    .addColumn('failure_mailed_at', 'timestamptz')
    .addColumn('lease_owner', 'text')
    .addColumn('lease_expires_at', 'timestamptz')
    .addColumn('position', 'bigserial', (c) => c.notNull())
    .addPrimaryKeyConstraint('webhooks_pk', ['project_id', 'id'])
    .addCheckConstraint('webhooks_format', sql`format in ('vnext', 'legacy')`)
    .addCheckConstraint('webhooks_health', sql`health in ('unknown', 'working', 'failing', 'dead')`)
    .execute();

  await db.schema
    .createTable('webhook_notifications')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('project_id', 'uuid', (c) => c.notNull())
    .addColumn('webhook_id', 'uuid', (c) => c.notNull())
    .addColumn('event_seq', 'int8', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('ord', 'bigserial', (c) => c.notNull())
    .addColumn('body', 'jsonb', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('attempts', 'int4', (c) => c.notNull().defaultTo(0))
    .addColumn('has_failed', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('first_attempt_at', 'timestamptz')
    .addColumn('next_attempt_at', 'timestamptz', (c) => c.notNull())
    .addColumn('last_attempt_at', 'timestamptz')
    .addColumn('last_status', 'int4')
    .addColumn('last_response', 'text')
    .addForeignKeyConstraint(
      'webhook_notifications_webhook',
      ['project_id', 'webhook_id'],
      'webhooks',
      ['project_id', 'id'],
      (fk) => fk.onDelete('cascade'),
    )
    .addCheckConstraint('webhook_notifications_state', sql`state in ('pending', 'delivered', 'expired')`)
    .addUniqueConstraint('webhook_notifications_once', ['project_id', 'webhook_id', 'event_seq', 'kind'])
    .execute();
  // The head of each webhook's queue, and the debug list (newest first).
  await sql`create index webhook_notifications_queue on webhook_notifications (project_id, webhook_id, ord)
    where state = 'pending'`.execute(db);
  await sql`create index webhook_notifications_recent on webhook_notifications (project_id, webhook_id, created_at)`.execute(
    db,
  );

  await db.schema
    .createTable('webhook_attempts')
    .addColumn('notification_id', 'uuid', (c) => c.notNull().references('webhook_notifications.id').onDelete('cascade'))
    .addColumn('at', 'timestamptz', (c) => c.notNull())
    .addColumn('status', 'int4')
    .addColumn('is_accepted', 'boolean', (c) => c.notNull())
    .addColumn('duration_ms', 'int4', (c) => c.notNull())
    .addColumn('response', 'text')
    .execute();
  await sql`create index webhook_attempts_notification on webhook_attempts (notification_id, at)`.execute(db);

  // SPEC 3.2: the e-mail 5 days before a management key expires goes out once per key.
  await db.schema
    .createTable('key_expiry_notices')
    .addColumn('key_id', 'uuid', (c) => c.primaryKey().references('api_keys.id').onDelete('cascade'))
    .addColumn('sent_at', 'timestamptz', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('webhook_progress')
    .addColumn('project_id', 'uuid', (c) => c.primaryKey().references('projects.id').onDelete('cascade'))
    .addColumn('seq', 'int8', (c) => c.notNull())
    .execute();
}
