/**
 * A place in a keyset-paged list: the sort key of a row, as the adapter defines it. Numbers only,
 * so that a continuation token can carry it; only the adapter interprets them.
 */
export type PageKey = readonly number[];

/** Which page of a list to read: the rows after `after` (from the first row when null), at most `limit`. */
export interface PageRequest {
  readonly after: PageKey | null;
  readonly limit: number;
}

/**
 * One page of a list in the list's order, and the key to pass as `after` for the next page (null
 * when no row follows; the adapter reads one row beyond `limit` to know). Keys are unique, never
 * change and are taken in creation order, so rows created or deleted between two page reads never
 * make the other rows repeat or go missing; a row created meanwhile comes on a later page (unless
 * its transaction took its key before, and committed after, the one of a row already read). A page
 * costs the same wherever it starts (an index seek to `after`, never a skip over the rows before).
 */
export interface KeyedPage<T> {
  readonly rows: T[];
  readonly next: PageKey | null;
}
