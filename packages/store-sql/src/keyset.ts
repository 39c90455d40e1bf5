import { sql, type Kysely } from 'kysely';
import type { KeyedPage, PageKey } from '@lectern/core';
import type { Database } from './schema.ts';

/**
 * The KeyedPage of rows read with `limit + 1`: the first `limit` rows, and the key of the last of
 * them when a row follows (null otherwise).
 */
export function keyedPage<R, T>(
  rows: readonly R[],
  options: { limit: number; keyOf: (row: R) => PageKey; map: (row: R) => T },
): KeyedPage<T> {
  const kept = rows.slice(0, options.limit);
  const last = kept.at(-1);
  return {
    rows: kept.map(options.map),
    next: rows.length > options.limit && last !== undefined ? options.keyOf(last) : null,
  };
}

/** The `position` column (int8: a string from `pg`, a number from PGlite) as a page key part. */
export function positionOf(row: { position: string | number }): number {
  return Number(row.position);
}

/**
 * Runs a page query with sorting disabled (for this transaction, restored after), so the planner
 * walks the keyset index in key order and stops after `limit + 1` rows. Without table statistics
 * it estimates the rows after any key at about a hundred and prefers to fetch them all and sort
 * them, which makes page k cost as much as every row after it; statistics lag behind a bulk load
 * (PostgreSQL's autovacuum, and the embedded store's own analyzer, auto-analyze.ts, both wait for
 * a tenth of a table to change).
 */
export async function inKeyOrder<T>(db: Kysely<Database>, query: () => Promise<T>): Promise<T> {
  await sql`set local enable_sort = off`.execute(db);
  const result = await query();
  await sql`set local enable_sort to default`.execute(db);
  return result;
}
