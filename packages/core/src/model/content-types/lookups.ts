import type { ModelKind, ModelRecord } from '../../domain/model-record.ts';
import type { UnitOfWork } from '../../ports/store.ts';
import { describeReference, idFromExternalId, recordKeyOf, type Problems, type Reference } from '../shared/index.ts';
import type { SnippetBody, SnippetRecord } from './model.ts';

/** The type or snippet being written: references to it resolve before it is saved. */
export interface Container {
  readonly kind: 'content_type' | 'snippet';
  readonly projectId: string;
  readonly id: string;
  readonly codename: string;
  readonly externalId: string | null;
}

/**
 * Cached reads of the other model objects a definition refers to, within the writing transaction.
 * Lookups of content types see the container itself under its new identifiers.
 */
export class ModelLookups {
  readonly #tx: UnitOfWork;
  readonly #cache = new Map<string, Promise<ModelRecord | null>>();
  container: Container;

  constructor(tx: UnitOfWork, container: Container) {
    this.#tx = tx;
    this.container = container;
  }

  find(kind: ModelKind, ref: Reference): Promise<ModelRecord | null> {
    const cacheKey = `${kind}|${JSON.stringify(ref)}`;
    let found = this.#cache.get(cacheKey);
    if (!found) {
      found = this.#tx.model.find(this.container.projectId, kind, recordKeyOf(ref));
      this.#cache.set(cacheKey, found);
    }
    return found;
  }

  /**
   * A snippet that must exist, or null with a problem at `path`. Its row stays locked until commit,
   * so a concurrent delete of the snippet waits and then sees this type use it.
   */
  async requireSnippet(ref: Reference, path: string, problems: Problems): Promise<SnippetRecord | null> {
    const cacheKey = `snippet|${JSON.stringify(ref)}`;
    let pending = this.#cache.get(cacheKey);
    if (!pending) {
      pending = this.#tx.model.find(this.container.projectId, 'snippet', recordKeyOf(ref), { isForUpdate: true });
      this.#cache.set(cacheKey, pending);
    }
    const found = (await pending) as SnippetRecord | null;
    if (!found) problems.add(path, `The content type snippet with ${describeReference(ref)} was not found.`);
    return found;
  }

  /**
   * The id of a content type named in `allowed_content_types` and similar lists. An id is taken
   * as given; an external id of a type not created yet resolves to the id that type will get
   * (SPEC 2.1 rule 3); a codename must name an existing type or the container.
   */
  async contentTypeId(ref: Reference, path: string, problems: Problems): Promise<string | null> {
    if ('id' in ref) return ref.id;
    const self = this.container;
    if (self.kind === 'content_type') {
      if ('codename' in ref && ref.codename === self.codename) return self.id;
      if ('external_id' in ref && ref.external_id === self.externalId) return self.id;
    }
    const found = await this.find('content_type', ref);
    if (found) return found.id;
    if ('external_id' in ref)
      return idFromExternalId({ projectId: self.projectId, kind: 'content_type', externalId: ref.external_id });
    problems.add(path, `The content type with ${describeReference(ref)} was not found.`);
    return null;
  }

  /**
   * The id of a content item or asset in a default value. Items and assets live outside the
   * content model, so ids are taken as given and external ids resolve to the predicted id.
   */
  objectId(kind: 'content_item' | 'asset', ref: Reference, path: string, problems: Problems): string | null {
    if ('id' in ref) return ref.id;
    if ('external_id' in ref)
      return idFromExternalId({ projectId: this.container.projectId, kind, externalId: ref.external_id });
    problems.add(path, `Reference the ${kind === 'asset' ? 'asset' : 'content item'} by id or external_id.`);
    return null;
  }
}

/** The elements of a snippet, as a type using it sees them. */
export function snippetElements(snippet: ModelRecord | null): SnippetBody['elements'] {
  const elements = (snippet?.body as Partial<SnippetBody> | undefined)?.elements;
  return Array.isArray(elements) ? elements : [];
}
