import { deliveryIndexSettings } from '@lectern/engines';
import { envBoolean, port, sharedSettings, wholeNumber, type ConfigOf, type Setting } from '@lectern/config';
import { deliveryLimitSettings, type DeliveryHttpOptions } from '@lectern/read-path';
import type { GraphqlOptions } from './graphql-options.ts';

/**
 * The limits and compatibility switches of the GraphQL API (SPEC 4.4, 5, 8 defaults; today's
 * Kontent.ai behaviour by setting, DESIGN.md). `lectern start` and the cluster's GraphQL service
 * read the same names.
 */
export const graphqlLimitSettings = {
  graphqlMaxPageSize: {
    env: 'LECTERN_GRAPHQL_MAX_PAGE_SIZE',
    schema: wholeNumber({ min: 1, max: 2_000 }),
    default: '20',
    doc: 'Largest GraphQL collection limit (SPEC 8: 20; today Kontent.ai allows 1000).',
  },
  graphqlMaxComplexity: {
    env: 'LECTERN_GRAPHQL_MAX_COMPLEXITY',
    schema: wholeNumber({ min: 1, max: 1_000_000 }),
    default: '500',
    doc: 'Most items and components a GraphQL query may be able to return, else QUERY_TOO_COMPLEX (SPEC 8: 500).',
  },
  graphqlMaxDepth: {
    env: 'LECTERN_GRAPHQL_MAX_DEPTH',
    schema: wholeNumber({ min: 1, max: 10_000 }),
    default: '124',
    doc: 'Largest sum of the root queries nesting depths of a GraphQL request, else QUERY_TOO_DEEP (SPEC 8: 124).',
  },
  graphqlWhereCombined: {
    env: 'LECTERN_GRAPHQL_WHERE_COMBINED',
    schema: envBoolean,
    default: 'true',
    doc: "Let a GraphQL where hold several conditions, combined with AND and OR, as today's Kontent.ai does (false: SPEC 4.4 rules 3 and 6, one condition with one filter).",
  },
  graphqlSecureAccessKeys: {
    env: 'LECTERN_GRAPHQL_SECURE_ACCESS_KEYS',
    schema: envBoolean,
    default: 'false',
    doc: 'Serve GraphQL for projects with secure access on, to Bearer delivery keys (SPEC 5: unavailable; today Kontent.ai accepts keys).',
  },
  graphqlUnitsPerSecond: {
    env: 'LECTERN_GRAPHQL_UNITS_PER_SECOND',
    schema: wholeNumber({ min: 0, max: 1_000_000_000 }),
    default: '2000',
    doc: 'Resource units (a request plus each item and component read) uncached GraphQL queries of a project may spend per second, then 429 with Retry-After; 0: no limit.',
  },
  graphqlUnitsPerMinute: {
    env: 'LECTERN_GRAPHQL_UNITS_PER_MINUTE',
    schema: wholeNumber({ min: 0, max: 1_000_000_000 }),
    default: '40000',
    doc: 'Resource units uncached GraphQL queries of a project may spend per minute, then 429 with Retry-After; 0: no limit.',
  },
  graphqlPreview: {
    env: 'LECTERN_GRAPHQL_PREVIEW',
    schema: envBoolean,
    default: 'false',
    doc: 'Serve preview GraphQL (unpublished content, preview keys) on its own port (SPEC 5: preview is unavailable).',
  },
} satisfies Record<string, Setting<unknown>>;

export function graphqlOptions(config: ConfigOf<typeof graphqlLimitSettings>): GraphqlOptions {
  return {
    maxPageSize: config.graphqlMaxPageSize,
    maxComplexity: config.graphqlMaxComplexity,
    maxDepth: config.graphqlMaxDepth,
    isWhereCombined: config.graphqlWhereCombined,
    isSecureAccessKeyAllowed: config.graphqlSecureAccessKeys,
    unitsPerSecond: config.graphqlUnitsPerSecond,
    unitsPerMinute: config.graphqlUnitsPerMinute,
  };
}

/** The read path's settings GraphQL shares with Delivery: wait bound and response cache (its rate limit is its own). */
const readPathSettings = {
  deliveryWaitTimeoutMs: deliveryLimitSettings.deliveryWaitTimeoutMs,
  deliveryCacheEntries: deliveryLimitSettings.deliveryCacheEntries,
  deliveryCacheMib: deliveryLimitSettings.deliveryCacheMib,
  deliveryCdnMaxAgeSeconds: deliveryLimitSettings.deliveryCdnMaxAgeSeconds,
} satisfies Record<string, Setting<unknown>>;

/** The Delivery read-path options of the GraphQL service. */
export function graphqlHttpOptions(config: ConfigOf<typeof readPathSettings>): DeliveryHttpOptions {
  return {
    waitTimeoutMs: config.deliveryWaitTimeoutMs,
    cacheMaxEntries: config.deliveryCacheEntries,
    cacheMaxBytes: config.deliveryCacheMib * 1024 * 1024,
    cdnMaxAgeSeconds: config.deliveryCdnMaxAgeSeconds,
  };
}

/**
 * The defaults table of the GraphQL service in the cluster shape: one process serving the GraphQL
 * API (and preview GraphQL when enabled), reading the SQL delivery index in PostgreSQL. Stateless.
 */
export const graphqlSettings = {
  databaseUrl: sharedSettings.databaseUrl,
  host: sharedSettings.host,
  graphqlPort: {
    env: 'LECTERN_GRAPHQL_PORT',
    schema: port,
    default: '4403',
    doc: 'Port of the GraphQL API (0: a free one).',
  },
  graphqlPreviewPort: {
    env: 'LECTERN_GRAPHQL_PREVIEW_PORT',
    schema: port,
    default: '4409',
    doc: 'Port of preview GraphQL, when LECTERN_GRAPHQL_PREVIEW is on (0: a free one).',
  },
  poolSize: sharedSettings.poolSize,
  ...deliveryIndexSettings,
  ...readPathSettings,
  ...graphqlLimitSettings,
  logLevel: sharedSettings.logLevel,
} satisfies Record<string, Setting<unknown>>;
