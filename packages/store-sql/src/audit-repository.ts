import { sql, type Kysely, type Selectable } from 'kysely';
import type { AuditEntry, AuditInterface, AuditLogRepository, AuditRow } from '@lectern/core';
import type { AuditLogTable, Database } from './schema.ts';

function toEntry(row: Selectable<AuditLogTable>): AuditEntry {
  return {
    id: Number(row.id),
    projectId: row.project_id,
    occurredAt: new Date(row.occurred_at),
    actor: {
      type: row.actor_type as AuditEntry['actor']['type'],
      userId: row.actor_user_id,
      keyId: row.actor_key_id,
    },
    via: row.via as AuditInterface,
    requestId: row.request_id,
    action: row.action,
    object: {
      kind: row.object_kind,
      id: row.object_id,
      codename: row.object_codename,
      languageId: row.language_id,
      languageCodename: row.language_codename,
    },
    summary: row.summary,
  };
}

/** An entry as the columns of its `audit_log` row (the summary as JSON text). */
export function auditColumns(r: AuditRow) {
  return {
    project_id: r.projectId,
    occurred_at: r.occurredAt,
    actor_type: r.actor.type,
    actor_user_id: r.actor.userId,
    actor_key_id: r.actor.keyId,
    via: r.via,
    request_id: r.requestId,
    action: r.action,
    object_kind: r.object.kind,
    object_id: r.object.id,
    object_codename: r.object.codename,
    language_id: r.object.languageId,
    language_codename: r.object.languageCodename,
    summary: JSON.stringify(r.summary),
  };
}

/** The audit log table (migration 0020): insert, read newest first by keyset, prune by age. */
export function auditLogRepository(db: Kysely<Database>): AuditLogRepository {
  return {
    async insert(rows) {
      if (rows.length === 0) return;
      await db.insertInto('audit_log').values(rows.map(auditColumns)).execute();
    },
    async list(q) {
      let query = db.selectFrom('audit_log').selectAll();
      if (q.projectId !== null) query = query.where('project_id', '=', q.projectId);
      if (q.userId !== undefined) query = query.where('actor_user_id', '=', q.userId);
      if (q.keyId !== undefined) query = query.where('actor_key_id', '=', q.keyId);
      if (q.objectId !== undefined) query = query.where('object_id', '=', q.objectId);
      if (q.objectKind !== undefined) query = query.where('object_kind', '=', q.objectKind);
      if (q.action !== undefined)
        query = q.action.endsWith('.')
          ? query.where(sql<boolean>`starts_with(action, ${q.action})`)
          : query.where('action', '=', q.action);
      if (q.from !== undefined) query = query.where('occurred_at', '>=', q.from);
      if (q.to !== undefined) query = query.where('occurred_at', '<', q.to);
      if (q.before !== null) query = query.where('id', '<', String(q.before) as never);
      const rows = await query.orderBy('id', 'desc').limit(q.limit).execute();
      return rows.map(toEntry);
    },
    async prune(before) {
      // The trigger lets this transaction's deletes through, and no other's.
      await sql`set local lectern.audit_prune = 'on'`.execute(db);
      // Ids follow commit order, and so, but for clock skew between writers, do the times: delete up
      // to the first entry that is not older, found by walking the primary key from the oldest (as
      // many rows read as will be deleted, with no index on the time to keep up on every write).
      const result = await db
        .deleteFrom('audit_log')
        .where(
          'id',
          '<',
          sql<string>`coalesce(
            (select id from audit_log where occurred_at >= ${before} order by id limit 1),
            (select coalesce(max(id), 0) + 1 from audit_log))`,
        )
        .executeTakeFirst();
      await sql`set local lectern.audit_prune = 'off'`.execute(db);
      return Number(result.numDeletedRows);
    },
  };
}
