import { Client as ElasticsearchClient } from '@elastic/elasticsearch';
import { Client as OpenSearchClient } from '@opensearch-project/opensearch';

/**
 * The few search-engine calls the delivery index makes, behind one interface so that one query
 * builder serves both official clients: `@opensearch-project/opensearch` (OpenSearch 2/3) and
 * `@elastic/elasticsearch` (Elasticsearch 9; its 8.x line takes the same calls). Bodies are the same JSON for both; the clients
 * differ only in how a call takes them (OpenSearch: `body`; Elasticsearch 9: top-level keys) and
 * in how they answer (OpenSearch: `{ body }`; Elasticsearch: the body).
 */
export type SearchFlavour = 'opensearch' | 'elasticsearch';

export interface SearchHit<T> {
  readonly _id: string;
  readonly _source?: T;
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
}

export interface SearchEngine {
  readonly flavour: SearchFlavour;
  /** A search over an index or alias; a missing one answers no hits. */
  search<T>(index: string, body: SearchBody): Promise<SearchAnswer<T>>;
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
  deleteByQuery(index: string, query: object): Promise<void>;
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

const statusOf = (error: unknown): number | undefined =>
  (error as { meta?: { statusCode?: number } } | null)?.meta?.statusCode;

const isAlreadyThere = (error: unknown) =>
  statusOf(error) === 400 && /resource_already_exists/.test(String((error as Error).message));

type Body<T> = { readonly body: T };
// The typed signatures of the clients are wide unions; calls go through these narrow views.
type Call = (params: object, options?: object) => Promise<unknown>;

function aliasActions(alias: string, index: string, current: readonly string[], filter: object | undefined) {
  return [
    ...current.filter((c) => c !== index).map((c) => ({ remove: { index: c, alias } })),
    { add: { index, alias, ...(filter === undefined ? {} : { filter }) } },
  ];
}

const aliasNames = (found: Record<string, { aliases?: Record<string, unknown> }>) =>
  Object.values(found).flatMap((entry) => Object.keys(entry.aliases ?? {}));

/** `@opensearch-project/opensearch`: bodies under `body`, answers under `body`. */
export function openSearchEngine(client: OpenSearchClient): SearchEngine {
  const call = async <T>(fn: unknown, params: object, options?: object) =>
    ((await (fn as Call)(params, options)) as Body<T>).body;
  const engine: SearchEngine = {
    flavour: 'opensearch',
    search: (index, body) =>
      call(client.search.bind(client), { index, body, ignore_unavailable: true, allow_no_indices: true }),
    async bulk(operations, { refresh }) {
      if (operations.length === 0) return;
      checkBulk(await call<BulkAnswer>(client.bulk.bind(client), { body: operations, refresh }));
    },
    async createIndex(name, body) {
      try {
        await call(client.indices.create.bind(client.indices), { index: name, body });
        return true;
      } catch (error) {
        if (isAlreadyThere(error)) return false;
        throw error;
      }
    },
    async aliasTargets(alias) {
      const found = await call<Record<string, unknown>>(
        client.indices.getAlias.bind(client.indices),
        { name: alias },
        { ignore: [404] },
      );
      return Object.keys(found).filter((k) => k !== 'error' && k !== 'status');
    },
    async pointAlias(alias, index, filter) {
      const actions = aliasActions(alias, index, await engine.aliasTargets(alias), filter);
      await call(client.indices.updateAliases.bind(client.indices), { body: { actions } });
    },
    async removeAlias(alias, index) {
      await call(client.indices.updateAliases.bind(client.indices), {
        body: { actions: [{ remove: { index, alias } }] },
      });
    },
    async aliasesOf(index) {
      return aliasNames(
        await call(
          client.indices.getAlias.bind(client.indices),
          { index, ignore_unavailable: true },
          { ignore: [404] },
        ),
      );
    },
    async indices(pattern) {
      const found = await call<Record<string, unknown>>(client.indices.get.bind(client.indices), {
        index: pattern,
        ignore_unavailable: true,
        allow_no_indices: true,
      });
      return Object.keys(found);
    },
    async deleteIndices(names) {
      if (names.length === 0) return;
      await call(client.indices.delete.bind(client.indices), { index: names.join(',') }, { ignore: [404] });
    },
    async deleteByQuery(index, query) {
      await call(client.deleteByQuery.bind(client), {
        index,
        body: { query },
        refresh: true,
        conflicts: 'proceed',
        ignore_unavailable: true,
      });
    },
    async ping() {
      await client.ping();
    },
    close: () => client.close(),
  };
  return engine;
}

/** `@elastic/elasticsearch` (8 and 9 take these calls alike): bodies as top-level keys, answers are the body. */
export function elasticsearchEngine(client: ElasticsearchClient): SearchEngine {
  const call = async <T>(fn: unknown, params: object, options?: object) => (await (fn as Call)(params, options)) as T;
  const engine: SearchEngine = {
    flavour: 'elasticsearch',
    search: (index, body) =>
      call(client.search.bind(client), { index, ...body, ignore_unavailable: true, allow_no_indices: true }),
    async bulk(operations, { refresh }) {
      if (operations.length === 0) return;
      checkBulk(await call<BulkAnswer>(client.bulk.bind(client), { operations, refresh }));
    },
    async createIndex(name, body) {
      try {
        await call(client.indices.create.bind(client.indices), { index: name, ...body });
        return true;
      } catch (error) {
        if (isAlreadyThere(error)) return false;
        throw error;
      }
    },
    async aliasTargets(alias) {
      const found = await call<Record<string, unknown>>(
        client.indices.getAlias.bind(client.indices),
        { name: alias },
        { ignore: [404] },
      );
      return Object.keys(found).filter((k) => k !== 'error' && k !== 'status');
    },
    async pointAlias(alias, index, filter) {
      const actions = aliasActions(alias, index, await engine.aliasTargets(alias), filter);
      await call(client.indices.updateAliases.bind(client.indices), { actions });
    },
    async removeAlias(alias, index) {
      await call(client.indices.updateAliases.bind(client.indices), { actions: [{ remove: { index, alias } }] });
    },
    async aliasesOf(index) {
      return aliasNames(
        await call(
          client.indices.getAlias.bind(client.indices),
          { index, ignore_unavailable: true },
          { ignore: [404] },
        ),
      );
    },
    async indices(pattern) {
      const found = await call<Record<string, unknown>>(client.indices.get.bind(client.indices), {
        index: pattern,
        ignore_unavailable: true,
        allow_no_indices: true,
      });
      return Object.keys(found);
    },
    async deleteIndices(names) {
      if (names.length === 0) return;
      await call(client.indices.delete.bind(client.indices), { index: names.join(',') }, { ignore: [404] });
    },
    async deleteByQuery(index, query) {
      await call(client.deleteByQuery.bind(client), {
        index,
        query,
        refresh: true,
        conflicts: 'proceed',
        ignore_unavailable: true,
      });
    },
    async ping() {
      await client.ping();
    },
    close: () => client.close(),
  };
  return engine;
}

/** Connects to the engine at `url` through the client of its flavour. */
export function connectSearchEngine(options: { flavour: SearchFlavour; url: string }): SearchEngine {
  return options.flavour === 'opensearch'
    ? openSearchEngine(new OpenSearchClient({ node: options.url }))
    : elasticsearchEngine(new ElasticsearchClient({ node: options.url }));
}
