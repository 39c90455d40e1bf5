import type { DeleteResult, Kysely, UpdateResult } from 'kysely';
import type { KeyedPage, PageRequest, RecordKey } from '@lectern/core';
import type { Database } from './schema.ts';
import { inKeyOrder, keyedPage, positionOf } from './keyset.ts';

/*
 * The reads and writes the project-scoped repositories share (a row by key, rows by id, a page in
 * position order, an update or delete of one row), over the kysely builder each repository starts
 * on its own table. They ask of a builder only the methods they call (as kysely's own dialects
 * declare only the slice of a driver they use), so the table's row type flows through unchanged
 * and a builder on a table without the columns named here does not compile.
 */

/** A select, update or delete narrowed by equality on the columns `C`. */
interface Narrowable<Q, C extends string> {
  where(column: C, op: '=', value: string): Q;
}

/** A select of rows that have an `id` and a `position` (the keyset order of creation). */
interface PositionSelect<Q, R> {
  where(column: 'position', op: '>', value: number): Q;
  orderBy(column: 'position'): Q;
  limit(limit: number): Q;
  execute(): Promise<R[]>;
}

/** A select of model-like rows: named by id, codename or external id. */
interface KeyedSelect<Q, R> extends PositionSelect<Q, R> {
  where(column: 'position', op: '>', value: number): Q;
  where(column: 'id' | 'codename' | 'external_id', op: '=', value: string): Q;
  where(column: 'id', op: 'in', value: string[]): Q;
  forUpdate(): Q;
  executeTakeFirst(): Promise<R | undefined>;
}

/** `query` narrowed to the one row of `projectId` with `id`. */
export function whereRow<Q extends Narrowable<Q, 'project_id' | 'id'>>(query: Q, projectId: string, id: string): Q {
  return query.where('project_id', '=', projectId).where('id', '=', id);
}

/** `query` narrowed to the row `key` names: by id, codename or external id. */
export function whereKey<Q extends Narrowable<Q, 'id' | 'codename' | 'external_id'>>(query: Q, key: RecordKey): Q {
  if ('id' in key) return query.where('id', '=', key.id);
  if ('codename' in key) return query.where('codename', '=', key.codename);
  return query.where('external_id', '=', key.externalId);
}

/** The first row of `query`; `isForUpdate` locks it for the transaction. */
export function firstRow<R>(
  query: { forUpdate(): { executeTakeFirst(): Promise<R | undefined> }; executeTakeFirst(): Promise<R | undefined> },
  options: { isForUpdate?: boolean },
): Promise<R | undefined> {
  return (options.isForUpdate ? query.forUpdate() : query).executeTakeFirst();
}

/** Whether a delete removed a row. */
export async function isDeleted(query: { executeTakeFirst(): Promise<DeleteResult> }): Promise<boolean> {
  return Number((await query.executeTakeFirst()).numDeletedRows) > 0;
}

/** Whether an update changed a row. */
export async function isUpdated(query: { executeTakeFirst(): Promise<UpdateResult> }): Promise<boolean> {
  return Number((await query.executeTakeFirst()).numUpdatedRows) > 0;
}

/** One page of `query`'s rows in position order, read by key (see `inKeyOrder`), mapped by `map`. */
export async function positionPage<Q extends PositionSelect<Q, R>, R extends { position: string | number }, T>(
  db: Kysely<Database>,
  options: { query: Q; request: PageRequest; map: (row: R) => T },
): Promise<KeyedPage<T>> {
  const { request } = options;
  const query = request.after ? options.query.where('position', '>', request.after[0] ?? 0) : options.query;
  const rows = await inKeyOrder(db, () =>
    query
      .orderBy('position')
      .limit(request.limit + 1)
      .execute(),
  );
  return keyedPage(rows, { limit: request.limit, keyOf: (r) => [positionOf(r)], map: options.map });
}

/**
 * The finders of a repository whose rows `select(projectId)` reads (narrowed to the project),
 * mapped to records by `map`.
 */
export function projectRows<Q extends KeyedSelect<Q, R>, R extends { position: string | number }, T>(
  db: Kysely<Database>,
  options: { select: (projectId: string) => Q; map: (row: R) => T },
) {
  const { select, map } = options;
  return {
    async find(projectId: string, key: RecordKey, findOptions: { isForUpdate?: boolean } = {}): Promise<T | null> {
      const row = await firstRow(whereKey(select(projectId), key), findOptions);
      return row ? map(row) : null;
    },
    /** The rows with these ids, in no particular order. */
    async findMany(projectId: string, ids: readonly string[]): Promise<T[]> {
      if (ids.length === 0) return [];
      return (
        await select(projectId)
          .where('id', 'in', [...ids])
          .execute()
      ).map(map);
    },
    /** Every row, in creation order. */
    async list(projectId: string): Promise<T[]> {
      return (await select(projectId).orderBy('position').execute()).map(map);
    },
    page(projectId: string, request: PageRequest): Promise<KeyedPage<T>> {
      return positionPage(db, { query: select(projectId), request, map });
    },
  };
}
