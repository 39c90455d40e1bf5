import { sql, type Kysely, type Selectable } from 'kysely';
import type {
  NoticeRepository,
  NotificationState,
  WebhookHealth,
  WebhookNotification,
  WebhookQueueRepository,
} from '@lectern/core';
import type { Database, WebhookNotificationsTable } from './schema.ts';
import { date } from './webhook-repositories.ts';

function toNotification(row: Selectable<WebhookNotificationsTable>): WebhookNotification {
  return {
    projectId: row.project_id,
    webhookId: row.webhook_id,
    id: row.id,
    eventSeq: Number(row.event_seq),
    kind: row.kind,
    body: row.body,
    createdAt: new Date(row.created_at),
    order: Number(row.ord),
    state: row.state as NotificationState,
    attempts: row.attempts,
    hasFailed: row.has_failed,
    firstAttemptAt: date(row.first_attempt_at),
    nextAttemptAt: new Date(row.next_attempt_at),
    lastAttemptAt: date(row.last_attempt_at),
    lastStatus: row.last_status,
    lastResponse: row.last_response,
  };
}

/** The oldest pending notification of webhook `w` is due at `now`. */
const headIsDue = (now: Date) => sql<boolean>`(
  select n.next_attempt_at from webhook_notifications n
  where n.project_id = w.project_id and n.webhook_id = w.id and n.state = 'pending'
  order by n.ord limit 1) <= ${now}`;

export function webhookQueueRepository(db: Kysely<Database>): WebhookQueueRepository {
  return {
    async enqueue(notifications) {
      if (notifications.length === 0) return 0;
      const rows = await db
        .insertInto('webhook_notifications')
        .values(
          notifications.map((n) => ({
            id: n.id,
            project_id: n.projectId,
            webhook_id: n.webhookId,
            event_seq: n.eventSeq,
            kind: n.kind,
            body: JSON.stringify(n.body),
            created_at: n.createdAt,
            state: 'pending',
            next_attempt_at: n.createdAt,
          })),
        )
        .onConflict((oc) => oc.constraint('webhook_notifications_once').doNothing())
        .returning('id')
        .execute();
      return rows.length;
    },
    async progress(projectId) {
      const row = await db
        .selectFrom('webhook_progress')
        .select('seq')
        .where('project_id', '=', projectId)
        .executeTakeFirst();
      return row ? Number(row.seq) : 0;
    },
    async advanceProgress(projectId, seq) {
      await db
        .insertInto('webhook_progress')
        .values({ project_id: projectId, seq })
        .onConflict((oc) => oc.column('project_id').doUpdateSet({ seq: sql`greatest(webhook_progress.seq, ${seq})` }))
        .execute();
    },
    async claim({ owner, now, until, limit }) {
      const rows = await sql<{ project_id: string; id: string }>`
        update webhooks set lease_owner = ${owner}, lease_expires_at = ${until}
        where (project_id, id) in (
          select w.project_id, w.id from webhooks w
          where w.is_enabled and w.health <> 'dead'
            and (w.lease_expires_at is null or w.lease_expires_at < ${now} or w.lease_owner = ${owner})
            and ${headIsDue(now)}
          order by w.position
          limit ${limit}
          for update skip locked)
        returning project_id, id`.execute(db);
      return rows.rows.map((r) => ({ projectId: r.project_id, id: r.id }));
    },
    async renew({ projectId, webhookId, owner, until }) {
      const result = await db
        .updateTable('webhooks')
        .set({ lease_expires_at: until })
        .where('project_id', '=', projectId)
        .where('id', '=', webhookId)
        .where('lease_owner', '=', owner)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
    async release({ projectId, webhookId, owner }) {
      await db
        .updateTable('webhooks')
        .set({ lease_owner: null, lease_expires_at: null })
        .where('project_id', '=', projectId)
        .where('id', '=', webhookId)
        .where('lease_owner', '=', owner)
        .execute();
    },
    async due({ projectId, webhookId, now, limit }) {
      const rows = await db
        .selectFrom('webhook_notifications')
        .selectAll()
        .where('project_id', '=', projectId)
        .where('webhook_id', '=', webhookId)
        .where('state', '=', 'pending')
        .orderBy('ord')
        .limit(limit)
        .execute();
      const result: WebhookNotification[] = [];
      for (const row of rows.map(toNotification)) {
        if (row.nextAttemptAt.getTime() > now.getTime()) break;
        result.push(row);
      }
      return result;
    },
    async recordAttempt(a) {
      if (a.ids.length === 0) return;
      const state = a.isAccepted ? 'delivered' : a.nextAttemptAt === null ? 'expired' : 'pending';
      await db
        .updateTable('webhook_notifications')
        .set({
          state,
          attempts: sql`attempts + 1`,
          has_failed: sql`has_failed or ${!a.isAccepted}`,
          first_attempt_at: sql`coalesce(first_attempt_at, ${a.at})`,
          next_attempt_at: a.nextAttemptAt ?? a.at,
          last_attempt_at: a.at,
          last_status: a.status,
          last_response: a.response,
        })
        .where('id', 'in', a.ids)
        .execute();
      // Only for notifications still there: the webhook may have been deleted during the POST.
      await db
        .insertInto('webhook_attempts')
        .columns(['notification_id', 'at', 'status', 'is_accepted', 'duration_ms', 'response'])
        .expression(
          db
            .selectFrom('webhook_notifications')
            .select([
              'id',
              sql<Date>`${a.at}::timestamptz`.as('at'),
              sql<number | null>`${a.status}::int4`.as('status'),
              sql<boolean>`${a.isAccepted}::boolean`.as('is_accepted'),
              sql<number>`${Math.round(a.durationMs)}::int4`.as('duration_ms'),
              sql<string | null>`${a.response}::text`.as('response'),
            ])
            .where('id', 'in', a.ids),
        )
        .execute();
    },
    async discardPending(projectId, webhookId) {
      const pending = db
        .updateTable('webhook_notifications')
        .set({ state: 'expired' })
        .where('project_id', '=', projectId)
        .where('webhook_id', '=', webhookId)
        .where('state', '=', 'pending')
        .where('has_failed', '=', true);
      const failed = await pending.executeTakeFirst();
      const result = await db
        .deleteFrom('webhook_notifications')
        .where('project_id', '=', projectId)
        .where('webhook_id', '=', webhookId)
        .where('state', '=', 'pending')
        .executeTakeFirst();
      return Number(failed.numUpdatedRows) + Number(result.numDeletedRows);
    },
    async requeueLastFailed({ projectId, webhookId, now }) {
      const last = await db
        .selectFrom('webhook_notifications')
        .select('id')
        .where('project_id', '=', projectId)
        .where('webhook_id', '=', webhookId)
        .where('has_failed', '=', true)
        .orderBy('ord', 'desc')
        .limit(1)
        .executeTakeFirst();
      if (last === undefined) return false;
      await db
        .updateTable('webhook_notifications')
        .set({ state: 'pending', attempts: 0, first_attempt_at: null, next_attempt_at: now })
        .where('id', '=', last.id)
        .execute();
      return true;
    },
    async list({ projectId, webhookId, since, filter, limit }) {
      let query = db
        .selectFrom('webhook_notifications')
        .selectAll()
        .where('project_id', '=', projectId)
        .where('webhook_id', '=', webhookId)
        .where('created_at', '>=', since);
      if (filter === 'failed') query = query.where('has_failed', '=', true);
      if (filter === 'failing') query = query.where('has_failed', '=', true).where('state', '=', 'pending');
      const rows = await query.orderBy('ord', 'desc').limit(limit).execute();
      return rows.map(toNotification);
    },
    async declareDead(failingBefore) {
      const dead = await db
        .updateTable('webhooks')
        .set({ health: 'dead' })
        .where('health', '=', 'failing')
        .where('failing_since', '<=', failingBefore)
        .returning(['project_id', 'id'])
        .execute();
      for (const w of dead) await this.discardPending(w.project_id, w.id);
      return dead.length;
    },
    async purge(before) {
      const result = await db
        .deleteFrom('webhook_notifications')
        .where('state', '<>', 'pending')
        .where('created_at', '<', before)
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
    async depth() {
      const rows = await db
        .selectFrom('webhook_notifications')
        .select(['state', sql<string | number>`count(*)`.as('n')])
        .groupBy('state')
        .execute();
      const counts: Record<NotificationState, number> = { pending: 0, delivered: 0, expired: 0 };
      for (const r of rows) counts[r.state as NotificationState] = Number(r.n);
      return counts;
    },
    async healthCounts() {
      const rows = await db
        .selectFrom('webhooks')
        .select(['health', sql<string | number>`count(*)`.as('n')])
        .groupBy('health')
        .execute();
      const counts: Record<WebhookHealth, number> = { unknown: 0, working: 0, failing: 0, dead: 0 };
      for (const r of rows) counts[r.health as WebhookHealth] = Number(r.n);
      return counts;
    },
    async nextDueAt() {
      // The head of each queue: later notifications wait behind it whatever their own time.
      const row = await sql<{ at: Date | string | null }>`
        select min((select n.next_attempt_at from webhook_notifications n
          where n.project_id = w.project_id and n.webhook_id = w.id and n.state = 'pending'
          order by n.ord limit 1)) as at
        from webhooks w where w.is_enabled and w.health <> 'dead'`.execute(db);
      return date(row.rows[0]?.at ?? null);
    },
  };
}

export function noticeRepository(db: Kysely<Database>): NoticeRepository {
  return {
    async claimKeyExpiryNotices({ now, until }) {
      const rows = await sql<{ key_id: string; project_id: string; expires_at: Date | string }>`
        with claimed as (
          insert into key_expiry_notices (key_id, sent_at)
          select k.id, ${now} from api_keys k
          where k.kind = 'management' and k.revoked_at is null
            and k.expires_at > ${now} and k.expires_at <= ${until}
          on conflict (key_id) do nothing
          returning key_id)
        select k.id as key_id, k.project_id, k.expires_at from claimed c join api_keys k on k.id = c.key_id
        order by k.expires_at`.execute(db);
      return rows.rows.map((r) => ({ keyId: r.key_id, projectId: r.project_id, expiresAt: new Date(r.expires_at) }));
    },
  };
}
