import type { RecommendQuery } from './recs-port.ts';

/**
 * How a recommendation index ranks, shared by every reader (SQL in `recs-sql`, k-NN in `recs-search`) so
 * that they mean the same: the score blends and how many candidates each source gives.
 */

/** Visits at which an item's popularity counts half in the `default` blend. */
export const halfPopularVisits = 3;
/** Weight of similarity in the `default` blend (popularity: the rest). */
export const similarWeight = 0.6;
/** Weight of vector similarity in search (lexical relevance: the rest). */
export const searchVectorWeight = 0.5;

/** The most candidates a source gives (a search engine's default result window). */
export const maxCandidates = 10_000;

/** Candidates per source: enough that the booster and the language de-duplication can reorder. */
export const candidatesFor = (limit: number, isBoosted: boolean) => Math.max(isBoosted ? 100 : 50, limit * 4);

/**
 * Whether the request ranks the current item's nearest neighbours only: plain `similar` from a
 * known item (the recent and popular candidates could not pass them, and no booster reorders).
 */
export const isNearOnly = (q: RecommendQuery, hasCurrent: boolean) =>
  q.scenario === 'similar' && q.booster === null && hasCurrent;

/**
 * Candidates per source at the first try: twice the limit when the nearest neighbours alone rank
 * (a reader asks for four times as many when languages of the same items leave fewer distinct
 * codenames than the limit), else `candidatesFor`.
 */
export const firstCandidates = (q: RecommendQuery, hasCurrent: boolean) =>
  isNearOnly(q, hasCurrent) ? Math.max(10, 2 * q.limit) : candidatesFor(q.limit, q.booster !== null);
