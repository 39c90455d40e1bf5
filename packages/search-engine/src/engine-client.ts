import type { Client as ElasticsearchClient } from '@elastic/elasticsearch';
import type { Client as OpenSearchClient } from '@opensearch-project/opensearch';

/**
 * The few search-engine calls the delivery and recommendation indices make, behind one interface so that one query
 * builder serves both official clients: `@opensearch-project/opensearch` (OpenSearch 2/3) and
 * `@elastic/elasticsearch` (Elasticsearch 9; its 8.x line takes the same calls). Bodies are the same JSON for both; the clients
 * differ only in how a call takes them (OpenSearch: `body`; Elasticsearch 9: top-level keys) and
 * in how they answer (OpenSearch: `{ body }`; Elasticsearch: the body).
 */
export type SearchFlavour = 'opensearch' | 'elasticsearch';

export interface SearchHit<T> {
  readonly _id: string;
  readonly _score?: number | null;
  readonly _source?: T;
  /** Values of the requested `docvalue_fields`, each as an array. */
  readonly fields?: Readonly<Record<string, readonly unknown[]>>;
  /** The named queries the hit matched, with their scores when `namedQueryScores` was asked. */
  readonly matched_queries?: Readonly<Record<string, number>> | readonly string[];
  readonly sort?: readonly unknown[];
}

export interface SearchAnswer<T> {
  readonly hits: {
    readonly total?: number | { readonly value: number };
    readonly hits: readonly SearchHit<T>[];
  };
}

/** A search request body (query DSL), the same for both engines. */
export interface SearchBody {
  readonly query: object;
  readonly sort?: readonly object[];
  readonly from?: number;
  readonly size: number;
  readonly search_after?: readonly unknown[];
  readonly track_total_hits?: boolean;
  readonly _source?: boolean | readonly string[];
  readonly docvalue_fields?: readonly string[];
}

export interface SearchEngine {
  readonly flavour: SearchFlavour;
  /**
   * A search over an index or alias; a missing one answers no hits. `namedQueryScores`: each hit's
   * `matched_queries` maps the name of every named query it matched to that query's score.
   */
  search<T>(index: string, body: SearchBody, options?: { namedQueryScores?: boolean }): Promise<SearchAnswer<T>>;
  /**
   * Several searches over one index in one request, answered in order; throws (with the first
   * failed search's status as `meta.statusCode`) when any failed.
   */
  msearch<T>(index: string, bodies: readonly SearchBody[]): Promise<SearchAnswer<T>[]>;
  /** Bulk operations (action and document lines); throws when any operation failed. */
  bulk(operations: readonly object[], options: { readonly refresh: boolean }): Promise<void>;
  /** Creates an index; false when it exists already. */
  createIndex(name: string, body: { settings: object; mappings: object; aliases?: object }): Promise<boolean>;
  /** The indices an alias points to (none when it does not exist). */
  aliasTargets(alias: string): Promise<string[]>;
  /** Atomically points `alias` at `index` only (with a filter: a filtered alias). */
  pointAlias(alias: string, index: string, filter?: object): Promise<void>;
  /** The aliases on an index. */
  aliasesOf(index: string): Promise<string[]>;
  removeAlias(alias: string, index: string): Promise<void>;
  /** Names of the indices matching a pattern (`name-*`). */
  indices(pattern: string): Promise<string[]>;
  deleteIndices(names: readonly string[]): Promise<void>;
  /** Deletes what matches; refreshed unless `refresh` is false (a refresh that follows shows it). */
  deleteByQuery(index: string, query: object, options?: { readonly refresh: boolean }): Promise<void>;
  /** Throws when the engine does not answer (readiness). */
  ping(): Promise<void>;
  close(): Promise<void>;
}

interface BulkAnswer {
  readonly errors: boolean;
  readonly items: readonly Record<string, { status: number; error?: unknown }>[];
}

function checkBulk(answer: BulkAnswer): void {
  if (!answer.errors) return;
  const failed = answer.items.flatMap((item) => Object.values(item)).filter((r) => r.status >= 300 && r.status !== 404);
  if (failed.length > 0)
    throw new Error(`search engine bulk write failed: ${failed.length} operations, first ${JSON.stringify(failed[0])}`);
}

type MsearchAnswer<T> = {
  readonly responses: readonly (SearchAnswer<T> & { readonly error?: unknown; readonly status?: number })[];
};

function checkMsearch<T>(answer: MsearchAnswer<T>): SearchAnswer<T>[] {
  const failed = answer.responses.find((r) => r.error !== undefined);
  if (failed !== undefined)
    throw Object.assign(new Error(`search engine multi-search failed: ${JSON.stringify(failed.error)}`), {
      meta: { statusCode: failed.status },
    });
  return [...answer.responses];
}

const statusOf = (error: unknown): number | undefined =>
  (error as { meta?: { statusCode?: number } } | null)?.meta?.statusCode;

const isAlreadyThere = (error: unknown) =>
  statusOf(error) === 400 && /resource_already_exists/.test(String((error as Error).message));

/**
 * The slice of either client the engine calls. Both official clients have these methods with
 * these names; only where a body goes and where the answer comes back differ (`Dialect`).
 */
type Call = (params: object, options?: object) => Promise<unknown>;
interface EngineClient {
  search: Call;
  msearch: Call;
  bulk: Call;
  deleteByQuery: Call;
  ping(): Promise<unknown>;
  close(): Promise<void>;
  indices: { create: Call; getAlias: Call; updateAliases: Call; get: Call; delete: Call };
}

interface Dialect {
  readonly flavour: SearchFlavour;
  /** The call's parameters with `body` where this client takes it. */
  withBody(params: object, body: object): object;
  /** Bulk parameters with the operation lines where this client takes them. */
  withOperations(params: object, operations: readonly object[]): object;
  /** Multi-search parameters with the header and body lines where this client takes them. */
  withSearches(params: object, lines: readonly object[]): object;
  /** The body of this client's answer. */
  answerOf(raw: unknown): unknown;
}

/** `@opensearch-project/opensearch`: bodies under `body`, answers under `body`. */
const openSearchDialect: Dialect = {
  flavour: 'opensearch',
  withBody: (params, body) => ({ ...params, body }),
  withOperations: (params, operations) => ({ ...params, body: operations }),
  withSearches: (params, lines) => ({ ...params, body: lines }),
  answerOf: (raw) => (raw as { readonly body: unknown }).body,
};

/** `@elastic/elasticsearch` (8 and 9 take these calls alike): bodies as top-level keys, answers are the body. */
const elasticsearchDialect: Dialect = {
  flavour: 'elasticsearch',
  withBody: (params, body) => ({ ...params, ...body }),
  withOperations: (params, operations) => ({ ...params, operations }),
  withSearches: (params, lines) => ({ ...params, searches: lines }),
  answerOf: (raw) => raw,
};

function aliasActions(alias: string, index: string, current: readonly string[], filter: object | undefined) {
  return [
    ...current.filter((c) => c !== index).map((c) => ({ remove: { index: c, alias } })),
    { add: { index, alias, ...(filter === undefined ? {} : { filter }) } },
  ];
}

const aliasNames = (found: Record<string, { aliases?: Record<string, unknown> }>) =>
  Object.values(found).flatMap((entry) => Object.keys(entry.aliases ?? {}));

/** The engine on a client of either flavour. */
function searchEngineOn(client: EngineClient, dialect: Dialect): SearchEngine {
  const call = async <T>(
    fn: (params: object, options?: object) => Promise<unknown>,
    params: object,
    options?: object,
  ) => dialect.answerOf(await fn(params, options)) as T;
  const { indices } = client;
  const missingIsEmpty = { ignore_unavailable: true, allow_no_indices: true };
  const engine: SearchEngine = {
    flavour: dialect.flavour,
    search: (index, body, options) =>
      call(
        (p) => client.search(p),
        dialect.withBody(
          { index, ...missingIsEmpty, ...(options?.namedQueryScores ? { include_named_queries_score: true } : {}) },
          body,
        ),
      ),
    async msearch<T>(index: string, bodies: readonly SearchBody[]) {
      if (bodies.length === 0) return [];
      const lines = bodies.flatMap((body) => [{}, body]);
      const params = dialect.withSearches({ index, ...missingIsEmpty }, lines);
      return checkMsearch(await call<MsearchAnswer<T>>((p) => client.msearch(p), params));
    },
    async bulk(operations, { refresh }) {
      if (operations.length === 0) return;
      checkBulk(await call<BulkAnswer>((p) => client.bulk(p), dialect.withOperations({ refresh }, operations)));
    },
    async createIndex(name, body) {
      try {
        await call((p) => indices.create(p), dialect.withBody({ index: name }, body));
        return true;
      } catch (error) {
        if (isAlreadyThere(error)) return false;
        throw error;
      }
    },
    async aliasTargets(alias) {
      const found = await call<Record<string, unknown>>(
        (p, o) => indices.getAlias(p, o),
        { name: alias },
        { ignore: [404] },
      );
      return Object.keys(found).filter((k) => k !== 'error' && k !== 'status');
    },
    async pointAlias(alias, index, filter) {
      const actions = aliasActions(alias, index, await engine.aliasTargets(alias), filter);
      await call((p) => indices.updateAliases(p), dialect.withBody({}, { actions }));
    },
    async removeAlias(alias, index) {
      await call((p) => indices.updateAliases(p), dialect.withBody({}, { actions: [{ remove: { index, alias } }] }));
    },
    async aliasesOf(index) {
      return aliasNames(
        await call((p, o) => indices.getAlias(p, o), { index, ignore_unavailable: true }, { ignore: [404] }),
      );
    },
    async indices(pattern) {
      return Object.keys(
        await call<Record<string, unknown>>((p) => indices.get(p), { index: pattern, ...missingIsEmpty }),
      );
    },
    async deleteIndices(names) {
      if (names.length === 0) return;
      await call((p, o) => indices.delete(p, o), { index: names.join(',') }, { ignore: [404] });
    },
    async deleteByQuery(index, query, options) {
      const params = { index, refresh: options?.refresh ?? true, conflicts: 'proceed', ignore_unavailable: true };
      await call((p) => client.deleteByQuery(p), dialect.withBody(params, { query }));
    },
    async ping() {
      await client.ping();
    },
    close: () => client.close(),
  };
  return engine;
}

// The clients' typed signatures are wide unions; the engine calls them through the narrow view above.
export const openSearchEngine = (client: OpenSearchClient): SearchEngine =>
  searchEngineOn(client as unknown as EngineClient, openSearchDialect);

export const elasticsearchEngine = (client: ElasticsearchClient): SearchEngine =>
  searchEngineOn(client as unknown as EngineClient, elasticsearchDialect);

/**
 * A client made at its first call: a process on the SQL index (`lectern start`, which imports these
 * modules through the services' settings) never loads either client (about 14 MiB of heap).
 */
function clientOnFirstCall(load: () => Promise<EngineClient>): EngineClient {
  let loaded: Promise<EngineClient> | null = null;
  const client = () => (loaded ??= load());
  const method =
    (pick: (c: EngineClient) => Call): Call =>
    async (params, options) =>
      pick(await client())(params, options);
  return {
    search: method((c) => c.search.bind(c)),
    msearch: method((c) => c.msearch.bind(c)),
    bulk: method((c) => c.bulk.bind(c)),
    deleteByQuery: method((c) => c.deleteByQuery.bind(c)),
    ping: async () => (await client()).ping(),
    close: async () => (loaded === null ? undefined : (await loaded).close()),
    indices: {
      create: method((c) => c.indices.create.bind(c.indices)),
      getAlias: method((c) => c.indices.getAlias.bind(c.indices)),
      updateAliases: method((c) => c.indices.updateAliases.bind(c.indices)),
      get: method((c) => c.indices.get.bind(c.indices)),
      delete: method((c) => c.indices.delete.bind(c.indices)),
    },
  };
}

/** Connects to the engine at `url` through the client of its flavour. */
export function connectSearchEngine(options: { flavour: SearchFlavour; url: string }): SearchEngine {
  const isOpenSearch = options.flavour === 'opensearch';
  const client = clientOnFirstCall(async () => {
    const { Client } = isOpenSearch
      ? await import('@opensearch-project/opensearch')
      : await import('@elastic/elasticsearch');
    return new Client({ node: options.url }) as unknown as EngineClient;
  });
  return searchEngineOn(client, isOpenSearch ? openSearchDialect : elasticsearchDialect);
}
