import type { KeyedPage, PageKey } from '@lectern/core';

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
