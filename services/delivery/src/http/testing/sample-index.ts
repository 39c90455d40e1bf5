import type {
  DeliveryIndexReader,
  IndexDocument,
  IndexedModel,
  IndexedVariant,
  ItemDocuments,
  DeliveryChannel,
} from '@lectern/core';
import { createSqlIndex } from '@lectern/index-sql';
import { openPgliteStore } from '@lectern/store-sql';

/**
 * Hand-made variants in the real delivery index (the SQL one, which the delivery-index contract
 * suite runs) on a PGlite store of their own: for tests of the HTTP layer, which need content no
 * Management write makes (items in one language only, a chain of links, a component).
 */
export interface SampleContent {
  readonly production: readonly IndexedVariant[];
  readonly preview: readonly IndexedVariant[];
  readonly model: IndexedModel;
}

export interface SampleIndex {
  readonly reader: DeliveryIndexReader;
  /** Removes every production document of the item with this codename. */
  removeItem(codename: string): Promise<void>;
  close(): Promise<void>;
}

/** The index's documents of one channel, one entry per item. */
function itemDocuments(channel: DeliveryChannel, variants: readonly IndexedVariant[]): ItemDocuments[] {
  const byItem = new Map<string, IndexDocument[]>();
  for (const v of variants) {
    const document = { ...v, dependsOnItemIds: [], assetIds: [], usesItemCodenames: v.linkedItemCodenames };
    byItem.set(v.itemId, [...(byItem.get(v.itemId) ?? []), document]);
  }
  return [...byItem].map(([itemId, documents]) => ({ itemId, channel, documents }));
}

export async function openSampleIndex(projectId: string, content: SampleContent): Promise<SampleIndex> {
  const store = await openPgliteStore();
  const index = createSqlIndex({ db: store.db });
  let seq = 0;
  const write = (items: ItemDocuments[], model: IndexedModel | null) =>
    index.apply({ projectId, toSeq: ++seq, timestamp: new Date('2026-01-01T00:00:00Z'), items, model });
  await write(
    [...itemDocuments('production', content.production), ...itemDocuments('preview', content.preview)],
    content.model,
  );
  return {
    reader: index,
    async removeItem(codename) {
      const itemIds = new Set(
        content.production.filter((v) => v.item.system.codename === codename).map((v) => v.itemId),
      );
      await write(
        [...itemIds].map((itemId) => ({ itemId, channel: 'production', documents: [] })),
        null,
      );
    },
    close: () => store.close(),
  };
}

/**
 * A reader over another whose watermark the test sets (`mark`, 0 at first) and which counts its
 * reads: for tests of the HTTP layer's response cache and freshness.
 */
export class WatchedIndex implements DeliveryIndexReader {
  mark = 0;
  calls = 0;
  watermarkReads = 0;
  readonly #inner: DeliveryIndexReader;

  constructor(inner: DeliveryIndexReader) {
    this.#inner = inner;
  }

  async watermark(): Promise<number> {
    this.watermarkReads += 1;
    return this.mark;
  }

  queryItems(query: Parameters<DeliveryIndexReader['queryItems']>[0]) {
    this.calls += 1;
    return this.#inner.queryItems(query);
  }

  itemsByCodename(options: Parameters<DeliveryIndexReader['itemsByCodename']>[0]) {
    return this.#inner.itemsByCodename(options);
  }

  types(projectId: string) {
    return this.#inner.types(projectId);
  }

  taxonomies(projectId: string) {
    return this.#inner.taxonomies(projectId);
  }

  languages(projectId: string) {
    return this.#inner.languages(projectId);
  }

  usedIn(options: Parameters<DeliveryIndexReader['usedIn']>[0]) {
    return this.#inner.usedIn(options);
  }

  changesSince(options: Parameters<DeliveryIndexReader['changesSince']>[0]) {
    return this.#inner.changesSince(options);
  }
}
