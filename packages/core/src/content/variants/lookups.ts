import type { ModelRecord, RecordKey } from '../../domain/model-record.ts';
import type { UnitOfWork } from '../../ports/store.ts';
import type { ContentTypeBody, ElementBody, SnippetBody } from '../../model/content-types/model.ts';
import type { LanguageBody } from '../../model/languages.ts';
import type { TaxonomyBody } from '../../model/taxonomies/taxonomy-terms.ts';
import type { WorkflowBody } from '../../model/workflows/workflow-body.ts';
import type { SpaceBody } from '../../model/spaces/spaces.ts';
import type { ContentItemRecord } from '../items/item-record.ts';

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

  constructor(tx: UnitOfWork, projectId: string) {
    this.tx = tx;
    this.projectId = projectId;
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
    return this.#cached(`type|${JSON.stringify(key)}`, async () => {
      const record = await this.tx.model.find<ContentTypeBody>(this.projectId, 'content_type', key);
      if (!record) return null;
      const elements: ElementBody[] = [];
      for (const e of record.body.elements) {
        if (e.type === 'snippet') {
          const ref = e['snippet'] as { id?: string } | undefined;
          const snippet = ref?.id ? await this.snippet(ref.id) : null;
          for (const inner of snippet?.body.elements ?? []) if (!valueless.has(inner.type)) elements.push(inner);
        } else if (!valueless.has(e.type)) elements.push(e);
      }
      return { record, elements };
    });
  }

  snippet(id: string): Promise<ModelRecord<SnippetBody> | null> {
    return this.#cached(`snippet|${id}`, () => this.tx.model.find<SnippetBody>(this.projectId, 'snippet', { id }));
  }

  taxonomy(id: string): Promise<ModelRecord<TaxonomyBody> | null> {
    return this.#cached(`taxonomy|${id}`, () => this.tx.model.find<TaxonomyBody>(this.projectId, 'taxonomy', { id }));
  }

  language(key: RecordKey): Promise<ModelRecord<LanguageBody> | null> {
    return this.#cached(`language|${JSON.stringify(key)}`, () =>
      this.tx.model.find<LanguageBody>(this.projectId, 'language', key),
    );
  }

  workflows(): Promise<ModelRecord<WorkflowBody>[]> {
    return this.#cached('workflows', () => this.tx.model.list<WorkflowBody>(this.projectId, 'workflow'));
  }

  /** Ids of the spaces that include `collectionId`. */
  async spacesOf(collectionId: string): Promise<string[]> {
    const spaces = await this.#cached('spaces', () => this.tx.model.list<SpaceBody>(this.projectId, 'space'));
    return spaces.filter((s) => s.body.collections.some((c) => c.id === collectionId)).map((s) => s.id);
  }

  item(key: RecordKey): Promise<ContentItemRecord | null> {
    return this.#cached(`item|${JSON.stringify(key)}`, () => this.tx.items.find(this.projectId, key));
  }

  /** The existing items among `ids`, by id. */
  async items(ids: readonly string[]): Promise<Map<string, ContentItemRecord>> {
    const found = await this.tx.items.findMany(this.projectId, [...new Set(ids)]);
    return new Map(found.map((i) => [i.id, i]));
  }
}
