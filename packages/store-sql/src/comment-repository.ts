import type { Kysely, Selectable } from 'kysely';
import type { CommentRecord, CommentRepository, CommentThreadRecord } from '@lectern/core';
import type { CommentsTable, CommentThreadsTable, Database } from './schema.ts';

/** JSON columns: `pg` and PGlite parse jsonb; a string would be a value stored as text. */
const parsed = <T>(value: unknown): T => (typeof value === 'string' ? (JSON.parse(value) as T) : (value as T));

function toComment(row: Selectable<CommentsTable>): CommentRecord {
  return {
    id: row.id,
    threadId: row.thread_id,
    authorId: row.author_id,
    text: row.text,
    mentions: parsed<string[]>(row.mentions),
    createdAt: new Date(row.created_at),
    lastModified: new Date(row.last_modified),
  };
}

function toThread(row: Selectable<CommentThreadsTable>, comments: CommentRecord[]): CommentThreadRecord {
  return {
    projectId: row.project_id,
    id: row.id,
    itemId: row.item_id,
    languageId: row.language_id,
    elementId: row.element_id,
    anchor: parsed<CommentThreadRecord['anchor']>(row.anchor),
    createdBy: row.created_by,
    createdAt: new Date(row.created_at),
    resolvedAt: row.resolved_at === null ? null : new Date(row.resolved_at),
    resolvedBy: row.resolved_by,
    comments,
  };
}

/** Comment threads and comments (migration 0023), in the caller's transaction. */
export function commentRepository(db: Kysely<Database>): CommentRepository {
  const commentValues = (projectId: string, c: CommentRecord) => ({
    project_id: projectId,
    id: c.id,
    thread_id: c.threadId,
    author_id: c.authorId,
    text: c.text,
    mentions: JSON.stringify(c.mentions),
    created_at: c.createdAt,
    last_modified: c.lastModified,
  });
  return {
    async listThreads({ projectId, itemId, languageId }) {
      const threads = await db
        .selectFrom('comment_threads')
        .selectAll()
        .where('project_id', '=', projectId)
        .where('item_id', '=', itemId)
        .where('language_id', '=', languageId)
        .orderBy('position')
        .execute();
      if (threads.length === 0) return [];
      // One read of every comment of the variant's threads (bounded by core's limits), joined in memory.
      const comments = await db
        .selectFrom('comments')
        .innerJoin('comment_threads as t', (j) =>
          j.onRef('t.project_id', '=', 'comments.project_id').onRef('t.id', '=', 'comments.thread_id'),
        )
        .selectAll('comments')
        .where('comments.project_id', '=', projectId)
        .where('t.item_id', '=', itemId)
        .where('t.language_id', '=', languageId)
        .orderBy('comments.position')
        .execute();
      const byThread = new Map<string, CommentRecord[]>();
      for (const row of comments) {
        const list = byThread.get(row.thread_id) ?? [];
        list.push(toComment(row));
        byThread.set(row.thread_id, list);
      }
      return threads.map((t) => toThread(t, byThread.get(t.id) ?? []));
    },
    async countThreads({ projectId, itemId, languageId }) {
      const row = await db
        .selectFrom('comment_threads')
        .select((eb) => eb.fn.countAll<string | number>().as('n'))
        .where('project_id', '=', projectId)
        .where('item_id', '=', itemId)
        .where('language_id', '=', languageId)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },
    async countComments({ projectId, itemId, languageId }) {
      const row = await db
        .selectFrom('comments')
        .innerJoin('comment_threads as t', (j) =>
          j.onRef('t.project_id', '=', 'comments.project_id').onRef('t.id', '=', 'comments.thread_id'),
        )
        .select((eb) => eb.fn.countAll<string | number>().as('n'))
        .where('comments.project_id', '=', projectId)
        .where('t.item_id', '=', itemId)
        .where('t.language_id', '=', languageId)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },
    async findThread(projectId, id, options = {}) {
      let query = db.selectFrom('comment_threads').selectAll().where('project_id', '=', projectId).where('id', '=', id);
      if (options.isForUpdate) query = query.forUpdate();
      const thread = await query.executeTakeFirst();
      if (!thread) return null;
      const comments = await db
        .selectFrom('comments')
        .selectAll()
        .where('project_id', '=', projectId)
        .where('thread_id', '=', id)
        .orderBy('position')
        .execute();
      return toThread(thread, comments.map(toComment));
    },
    async insertThread(t) {
      await db
        .insertInto('comment_threads')
        .values({
          project_id: t.projectId,
          id: t.id,
          item_id: t.itemId,
          language_id: t.languageId,
          element_id: t.elementId,
          anchor: t.anchor === null ? null : JSON.stringify(t.anchor),
          created_by: t.createdBy,
          created_at: t.createdAt,
          resolved_at: t.resolvedAt,
          resolved_by: t.resolvedBy,
        })
        .execute();
      for (const c of t.comments) await db.insertInto('comments').values(commentValues(t.projectId, c)).execute();
    },
    async setResolved({ projectId, id, resolvedAt, resolvedBy }) {
      await db
        .updateTable('comment_threads')
        .set({ resolved_at: resolvedAt, resolved_by: resolvedBy })
        .where('project_id', '=', projectId)
        .where('id', '=', id)
        .execute();
    },
    async deleteThread(projectId, id) {
      const result = await db
        .deleteFrom('comment_threads')
        .where('project_id', '=', projectId)
        .where('id', '=', id)
        .executeTakeFirst();
      return result.numDeletedRows > 0n;
    },
    async insertComment(projectId, c) {
      await db.insertInto('comments').values(commentValues(projectId, c)).execute();
    },
    async updateComment({ projectId, id, text, mentions, lastModified }) {
      await db
        .updateTable('comments')
        .set({ text, mentions: JSON.stringify(mentions), last_modified: lastModified })
        .where('project_id', '=', projectId)
        .where('id', '=', id)
        .execute();
    },
    async deleteComment(projectId, id) {
      const result = await db
        .deleteFrom('comments')
        .where('project_id', '=', projectId)
        .where('id', '=', id)
        .executeTakeFirst();
      return result.numDeletedRows > 0n;
    },
  };
}
