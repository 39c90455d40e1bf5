import type { Kysely, Selectable } from 'kysely';
import type { WebhookFormat, WebhookHealth, WebhookRecord, WebhookRepository } from '@lectern/core';
import type { Database, WebhooksTable } from './schema.ts';
import { firstRow, isDeleted, isUpdated, whereRow } from './project-rows.ts';

/** A timestamp column as a Date (null stays null). */
export const date = (value: Date | string | null): Date | null => (value === null ? null : new Date(value));

function toWebhook(row: Selectable<WebhooksTable>): WebhookRecord {
  return {
    projectId: row.project_id,
    id: row.id,
    format: row.format as WebhookFormat,
    name: row.name,
    url: row.url,
    secret: row.secret,
    headers: row.headers,
    triggers: row.triggers,
    isEnabled: row.is_enabled,
    createdAt: new Date(row.created_at),
    lastModified: new Date(row.last_modified),
    fromSeq: Number(row.from_seq),
    resetRequestedAt: date(row.reset_requested_at),
    health: row.health as WebhookHealth,
    failingSince: date(row.failing_since),
    lastAcceptedAt: date(row.last_accepted_at),
    resetHandledAt: date(row.reset_handled_at),
    failureMailedAt: date(row.failure_mailed_at),
  };
}

export function webhookRepository(db: Kysely<Database>): WebhookRepository {
  return {
    async insert(w) {
      await db
        .insertInto('webhooks')
        .values({
          project_id: w.projectId,
          id: w.id,
          format: w.format,
          name: w.name,
          url: w.url,
          secret: w.secret,
          headers: JSON.stringify(w.headers),
          triggers: JSON.stringify(w.triggers),
          is_enabled: w.isEnabled,
          created_at: w.createdAt,
          last_modified: w.lastModified,
          from_seq: w.fromSeq,
          reset_requested_at: w.resetRequestedAt,
          health: w.health,
          failing_since: w.failingSince,
          last_accepted_at: w.lastAcceptedAt,
          reset_handled_at: w.resetHandledAt,
          failure_mailed_at: w.failureMailedAt,
        })
        .execute();
    },
    async get(projectId, id, options = {}) {
      const row = await firstRow(whereRow(db.selectFrom('webhooks').selectAll(), projectId, id), options);
      return row ? toWebhook(row) : null;
    },
    async list(projectId) {
      const rows = await db
        .selectFrom('webhooks')
        .selectAll()
        .where('project_id', '=', projectId)
        .orderBy('position')
        .execute();
      return rows.map(toWebhook);
    },
    async updateRegistration(projectId, id, r) {
      const values = {
        name: r.name,
        url: r.url,
        secret: r.secret,
        headers: JSON.stringify(r.headers),
        triggers: JSON.stringify(r.triggers),
        is_enabled: r.isEnabled,
        last_modified: r.lastModified,
        from_seq: r.fromSeq,
        reset_requested_at: r.resetRequestedAt,
      };
      return isUpdated(whereRow(db.updateTable('webhooks').set(values), projectId, id));
    },
    async updateHealth(projectId, id, h) {
      const values = {
        health: h.health,
        failing_since: h.failingSince,
        last_accepted_at: h.lastAcceptedAt,
        reset_handled_at: h.resetHandledAt,
        failure_mailed_at: h.failureMailedAt,
      };
      return isUpdated(whereRow(db.updateTable('webhooks').set(values), projectId, id));
    },
    // Notifications and their attempts go by cascade.
    delete: (projectId, id) => isDeleted(whereRow(db.deleteFrom('webhooks'), projectId, id)),
  };
}
