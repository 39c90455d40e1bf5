/** Limits and switches of the GraphQL API; every field has a default (SPEC 4.4, 5, 8). */
export interface GraphqlOptions {
  /** Largest collection `limit` (SPEC 8: 20; today's Kontent.ai: 1000). */
  readonly maxPageSize?: number;
  /** Largest complexity (SPEC 8: 500). */
  readonly maxComplexity?: number;
  /** Largest total depth (SPEC 8: 124). */
  readonly maxDepth?: number;
  /**
   * Most field values an answer may hold, each collection's items counted `limit` times (not in
   * SPEC 8: it bounds execution time, about 2 µs a value, which complexity alone does not).
   */
  readonly maxFieldValues?: number;
  /** Several `where` conditions, ANDed, and `AND` / `OR` lists (today's Kontent.ai) instead of one (SPEC 4.4 rule 3). */
  readonly isWhereCombined?: boolean;
  /** Projects with secure access on are served to Bearer delivery keys (today) instead of refused (SPEC 5). */
  readonly isSecureAccessKeyAllowed?: boolean;
  /**
   * Resource units a project may spend on uncached queries per second and per minute (SPEC 8:
   * amounts not shown; today's Kontent.ai: 2,000 and 40,000). A unit is a request plus each item
   * and component it read. 0: no limit.
   */
  readonly unitsPerSecond?: number;
  readonly unitsPerMinute?: number;
  /** Compile a query text with graphql-jit once it has run this many times (0: never). */
  readonly jitAfterHits?: number;
  /** POST body bytes (SPEC 8: 8 kB). */
  readonly maxBodyBytes?: number;
  /** GET URL characters (SPEC 8: 2,000). */
  readonly maxUrlLength?: number;
}

export type ResolvedGraphqlOptions = Required<GraphqlOptions>;

export const graphqlDefaults: ResolvedGraphqlOptions = Object.freeze({
  maxPageSize: 20,
  maxComplexity: 500,
  maxDepth: 124,
  maxFieldValues: 20_000,
  isWhereCombined: true,
  isSecureAccessKeyAllowed: false,
  unitsPerSecond: 2_000,
  unitsPerMinute: 40_000,
  jitAfterHits: 2,
  maxBodyBytes: 8 * 1024,
  maxUrlLength: 2_000,
});

/** The collection limit when a query gives none (SPEC 4.4, 8). */
export const defaultPageSize = 10;
