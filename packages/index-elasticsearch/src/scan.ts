import type { SearchBody, SearchEngine, SearchHit } from '@lectern/search-engine';

/** The engine's default `index.max_result_window`: `from + size` of one search stays within it. */
export const resultWindow = 10_000;

export interface ScanOptions {
  readonly query: object;
  /** Must end with a unique key (codename within one channel and language list, or `_id`). */
  readonly sort: readonly object[];
  readonly source: boolean | readonly string[];
  readonly skip?: number;
  /** Null: every hit. */
  readonly limit?: number | null;
  readonly isTotalCountNeeded?: boolean;
  /** Hits one search may reach (`from + size`); default the engine's default, 10,000. */
  readonly window?: number;
}

/**
 * Hits of a query in sort order from `skip`, at most `limit`: one search when the page lies within
 * the result window, else pages by `search_after` (the skipped part without sources). Readers
 * need no point in time: every query is pinned to one watermark, and versions superseded after it
 * stay in the index for a grace time, so consecutive pages read one consistent state.
 */
export async function scan<T>(
  engine: SearchEngine,
  index: string,
  options: ScanOptions,
): Promise<{ hits: SearchHit<T>[]; total: number | null }> {
  const skip = options.skip ?? 0;
  const window = options.window ?? resultWindow;
  const limit = options.limit ?? null;
  const totalOf = (t: number | { value: number } | undefined) => (typeof t === 'number' ? t : (t?.value ?? 0));
  const base = { query: options.query, sort: options.sort };
  if (limit !== null && skip + limit <= window) {
    const answer = await engine.search<T>(index, {
      ...base,
      from: skip,
      size: limit,
      _source: options.source,
      // Not counting (the engine counts up to 10,000 hits by default) lets it stop collecting
      // once no further hit can enter the page.
      track_total_hits: options.isTotalCountNeeded === true,
    });
    return { hits: [...answer.hits.hits], total: options.isTotalCountNeeded ? totalOf(answer.hits.total) : null };
  }
  const hits: SearchHit<T>[] = [];
  let total: number | null = null;
  let after: readonly unknown[] | undefined;
  let skipped = 0;
  for (;;) {
    const isSkipping = skipped < skip;
    const wanted = isSkipping ? skip - skipped : limit === null ? window : limit - hits.length;
    const body: SearchBody = {
      ...base,
      size: Math.min(wanted, window),
      _source: isSkipping ? false : options.source,
      ...(after === undefined ? {} : { search_after: after }),
      track_total_hits: total === null && options.isTotalCountNeeded === true,
    };
    const answer = await engine.search<T>(index, body);
    if (total === null && options.isTotalCountNeeded) total = totalOf(answer.hits.total);
    const page = answer.hits.hits;
    if (isSkipping) skipped += page.length;
    else hits.push(...page);
    if (page.length < body.size || (limit !== null && hits.length >= limit)) break;
    after = page.at(-1)?.sort;
    if (after === undefined) break;
  }
  return { hits, total };
}
