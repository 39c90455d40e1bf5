import { sql, type Kysely, type Selectable } from 'kysely';
import type { BackgroundTask, BackgroundTaskKind, BackgroundTaskRepository, BackgroundTaskStatus } from '@lectern/core';
import type { BackgroundTasksTable, Database } from './schema.ts';

function toTask(row: Selectable<BackgroundTasksTable>): BackgroundTask {
  return {
    id: row.id,
    projectId: row.project_id,
    kind: row.kind as BackgroundTaskKind,
    input: row.input,
    state: row.state,
    status: row.status as BackgroundTaskStatus,
    progress: { done: row.progress_done, total: row.progress_total },
    attempts: row.attempts,
    leaseOwner: row.lease_owner,
    leaseUntil: row.lease_until === null ? null : new Date(row.lease_until),
    error: row.error,
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
  };
}

export function backgroundTaskRepository(db: Kysely<Database>): BackgroundTaskRepository {
  return {
    async insert(task) {
      await db
        .insertInto('background_tasks')
        .values({
          id: task.id,
          project_id: task.projectId,
          kind: task.kind,
          input: JSON.stringify(task.input),
          status: 'queued',
          created_at: task.createdAt,
          updated_at: task.createdAt,
        })
        .execute();
    },
    async get(id) {
      const row = await db.selectFrom('background_tasks').selectAll().where('id', '=', id).executeTakeFirst();
      return row ? toTask(row) : null;
    },
    async claim({ owner, now, leaseUntil }) {
      const open = await db
        .selectFrom('background_tasks')
        .select('id')
        .where((eb) =>
          eb.or([eb('status', '=', 'queued'), eb.and([eb('status', '=', 'running'), eb('lease_until', '<', now)])]),
        )
        .orderBy('created_at')
        .orderBy('id')
        .limit(1)
        .forUpdate()
        .skipLocked()
        .executeTakeFirst();
      if (!open) return null;
      const row = await db
        .updateTable('background_tasks')
        .set({
          status: 'running',
          lease_owner: owner,
          lease_until: leaseUntil,
          attempts: sql<number>`attempts + 1`,
          updated_at: now,
        })
        .where('id', '=', open.id)
        .returningAll()
        .executeTakeFirstOrThrow();
      return toTask(row);
    },
    async advance({ id, owner, state, progress, now, leaseUntil }) {
      const result = await db
        .updateTable('background_tasks')
        .set({
          state: JSON.stringify(state),
          progress_done: progress.done,
          progress_total: progress.total,
          lease_until: leaseUntil,
          updated_at: now,
        })
        .where('id', '=', id)
        .where('lease_owner', '=', owner)
        .where('status', '=', 'running')
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    async complete({ id, owner, status, error, now }) {
      const result = await db
        .updateTable('background_tasks')
        .set({ status, error, lease_owner: null, lease_until: null, updated_at: now })
        .where('id', '=', id)
        .where('lease_owner', '=', owner)
        .where('status', '=', 'running')
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    async prune(before) {
      const result = await db
        .deleteFrom('background_tasks')
        .where('status', 'in', ['finished', 'failed'])
        .where('updated_at', '<', before)
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
