import type { ModelRecord, RecordKey } from '../../domain/model-record.ts';
import type { UnitOfWork } from '../../ports/store.ts';
import type { ContentTypeBody, ElementBody, SnippetBody } from '../../model/content-types/model.ts';
import type { LanguageBody } from '../../model/languages.ts';
import type { TaxonomyBody } from '../../model/taxonomies/taxonomy-terms.ts';
import type { WorkflowBody } from '../../model/workflows/workflow-body.ts';
import type { SpaceBody } from '../../model/spaces/spaces.ts';
import { zeroId } from '../../model/defaults.ts';
import type { ContentItemRecord } from '../items/item-record.ts';
import type { VariantRecord } from './variant-record.ts';
import { projectModelMemo, remember } from './model-memo.ts';

/** A content type as variants see it: its value elements in type order, snippets expanded in place. */
export interface TypeShape {
  readonly record: ModelRecord<ContentTypeBody>;
  /** Every element that holds a value (no guidelines, no snippet placeholders). */
  readonly elements: readonly ElementBody[];
}

/** Elements that never hold a value in a variant. */
const valueless = new Set(['guidelines', 'snippet']);

/**
 * Cached reads of the content model and of other items within one transaction, for validating
 * and rendering variants. Every read is by the transaction that writes, so it sees one state.
 */
export class ContentLookups {
  readonly tx: UnitOfWork;
  readonly projectId: string;
  readonly #cache = new Map<string, Promise<unknown>>();
  /** Model reads shared with other transactions at the same model version (null: none). */
  readonly #shared: Map<string, unknown> | null;
  /** Default-language variants read by `preloadDefaultVariants`, by item id (null: none). */
  readonly #defaultVariants = new Map<string, VariantRecord | null>();

  /**
   * `modelVersion`: the project's model version as this transaction read it before any model read
   * (`items.findForWrite`); with it, model reads are shared by the store's transactions at that
   * version (`projectModelMemo`). Without it, every read is this transaction's own.
   */
  constructor(tx: UnitOfWork, projectId: string, modelVersion: string | null = null) {
    this.tx = tx;
    this.projectId = projectId;
    this.#shared = projectModelMemo(tx, projectId, modelVersion);
  }

  /** `#cached` for a read of the content model: shared across transactions when a version is known. */
  #model<T>(key: string, load: () => Promise<T>): Promise<T> {
    const shared = this.#shared;
    if (shared === null) return this.#cached(key, load);
    return this.#cached(key, async () => {
      if (shared.has(key)) return shared.get(key) as T;
      const value = await load();
      remember(shared, key, value);
      return value;
    });
  }

  #cached<T>(key: string, load: () => Promise<T>): Promise<T> {
    let found = this.#cache.get(key) as Promise<T> | undefined;
    if (!found) {
      found = load();
      this.#cache.set(key, found);
    }
    return found;
  }

  type(key: RecordKey): Promise<TypeShape | null> {
    return this.#model(`type|${JSON.stringify(key)}`, async () => {
      const record = await this.tx.model.find<ContentTypeBody>(this.projectId, 'content_type', key);
      return record ? this.#shapeOf(record) : null;
    });
  }

  async #shapeOf(record: ModelRecord<ContentTypeBody>): Promise<TypeShape> {
    const elements: ElementBody[] = [];
    for (const e of record.body.elements) {
      if (e.type === 'snippet') {
        const ref = e['snippet'] as { id?: string } | undefined;
        const snippet = ref?.id ? await this.snippet(ref.id) : null;
        for (const inner of snippet?.body.elements ?? []) if (!valueless.has(inner.type)) elements.push(inner);
      } else if (!valueless.has(e.type)) elements.push(e);
    }
    return { record, elements };
  }

  /**
   * Reads the types among `typeIds` not read yet, and the snippets they use, in at most two
   * queries, so that rendering a page of variants of many types costs no query per type.
   */
  async preloadTypes(typeIds: Iterable<string>): Promise<void> {
    const missing = [...new Set(typeIds)].filter((id) => !this.#cache.has(`type|${JSON.stringify({ id })}`));
    if (missing.length === 0) return;
    const types = await this.tx.model.findMany<ContentTypeBody>(this.projectId, 'content_type', missing);
    const snippetIds = types.flatMap((t) =>
      t.body.elements
        .filter((e) => e.type === 'snippet')
        .map((e) => (e['snippet'] as { id?: string } | undefined)?.id)
        .filter((id): id is string => id !== undefined && !this.#cache.has(`snippet|${id}`)),
    );
    if (snippetIds.length > 0) {
      const snippets = new Map(
        (await this.tx.model.findMany<SnippetBody>(this.projectId, 'snippet', [...new Set(snippetIds)])).map((r) => [
          r.id,
          r,
        ]),
      );
      for (const id of snippetIds) this.#cache.set(`snippet|${id}`, Promise.resolve(snippets.get(id) ?? null));
    }
    const byId = new Map(types.map((t) => [t.id, t]));
    for (const id of missing) {
      const record = byId.get(id);
      this.#cache.set(`type|${JSON.stringify({ id })}`, record ? this.#shapeOf(record) : Promise.resolve(null));
    }
  }

  /**
   * Reads the default-language variants of the items in one query, for `defaultVariant`. Only for
   * reads: a variant written later in the transaction is not seen through the preloaded copy.
   */
  async preloadDefaultVariants(itemIds: Iterable<string>): Promise<void> {
    const missing = [...new Set(itemIds)].filter((id) => !this.#defaultVariants.has(id));
    if (missing.length === 0) return;
    const found = await this.tx.variants.findManyInLanguage(this.projectId, zeroId, missing);
    for (const id of missing) this.#defaultVariants.set(id, null);
    for (const v of found) this.#defaultVariants.set(v.itemId, v);
  }

  /** The item's default-language variant: the preloaded one, else read now. */
  async defaultVariant(itemId: string): Promise<VariantRecord | null> {
    const preloaded = this.#defaultVariants.get(itemId);
    if (preloaded !== undefined) return preloaded;
    return this.tx.variants.find(this.projectId, itemId, zeroId);
  }

  snippet(id: string): Promise<ModelRecord<SnippetBody> | null> {
    return this.#model(`snippet|${id}`, () => this.tx.model.find<SnippetBody>(this.projectId, 'snippet', { id }));
  }

  /** A content type or a collection record by any key (an item's fields). */
  modelObject(kind: 'content_type' | 'collection', key: RecordKey): Promise<ModelRecord<object> | null> {
    return this.#model(`${kind}-record|${JSON.stringify(key)}`, () => this.tx.model.find(this.projectId, kind, key));
  }

  taxonomy(id: string): Promise<ModelRecord<TaxonomyBody> | null> {
    return this.#model(`taxonomy|${id}`, () => this.tx.model.find<TaxonomyBody>(this.projectId, 'taxonomy', { id }));
  }

  language(key: RecordKey): Promise<ModelRecord<LanguageBody> | null> {
    return this.#model(`language|${JSON.stringify(key)}`, () =>
      this.tx.model.find<LanguageBody>(this.projectId, 'language', key),
    );
  }

  workflows(): Promise<ModelRecord<WorkflowBody>[]> {
    return this.#model('workflows', () => this.tx.model.list<WorkflowBody>(this.projectId, 'workflow'));
  }

  /** Ids of the spaces that include `collectionId`. */
  async spacesOf(collectionId: string): Promise<string[]> {
    const spaces = await this.#model('spaces', () => this.tx.model.list<SpaceBody>(this.projectId, 'space'));
    return spaces.filter((s) => s.body.collections.some((c) => c.id === collectionId)).map((s) => s.id);
  }

  item(key: RecordKey): Promise<ContentItemRecord | null> {
    return this.#cached(`item|${JSON.stringify(key)}`, () => this.tx.items.find(this.projectId, key));
  }

  /**
   * Reads the items among `ids` (well-formed UUIDs) not read yet in one query, so that `item({id})`
   * of each costs none: a page of references (bulk-get) resolves in one read instead of one each.
   */
  async preloadItems(ids: Iterable<string>): Promise<void> {
    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
    const wanted = [...new Set(ids)].filter(
      (id) => uuid.test(id) && !this.#cache.has(`item|${JSON.stringify({ id })}`),
    );
    if (wanted.length === 0) return;
    const found = await this.items(wanted);
    for (const id of wanted) this.#cache.set(`item|${JSON.stringify({ id })}`, Promise.resolve(found.get(id) ?? null));
  }

  /** The existing items among `ids`, by id. */
  async items(ids: readonly string[]): Promise<Map<string, ContentItemRecord>> {
    const found = await this.tx.items.findMany(this.projectId, [...new Set(ids)]);
    return new Map(found.map((i) => [i.id, i]));
  }
}
