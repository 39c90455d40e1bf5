import type { UnitOfWork } from '../../ports/store.ts';
import type { ContentItemRecord } from '../../content/items/item-record.ts';
import type { StoredElements, VariantRecord } from '../../content/variants/variant-record.ts';
import type { AssetRecord, BinaryFileRecord } from '../../content/assets/asset-record.ts';
import { assetUrl } from '../../content/assets/assets.ts';
import type { RenditionBody, RenditionRecord } from '../../content/assets/renditions.ts';
import type { DeliveryChannel } from '../index-port.ts';
import type { ModelView } from './model-view.ts';

/** An asset as rendering shows it: file facts, URL and descriptions. */
export interface AssetView {
  readonly asset: AssetRecord;
  readonly file: BinaryFileRecord;
  readonly url: string;
}

/**
 * Loads values by key in batches: the keys asked for while the current work is in flight (until
 * the next turn of the event loop) are fetched with one call, and every value is kept.
 */
class BatchLoader<V> {
  private readonly values = new Map<string, Promise<V | null>>();
  private pending: { key: string; resolve: (v: V | null) => void; reject: (e: unknown) => void }[] = [];
  private readonly load: (keys: readonly string[]) => Promise<ReadonlyMap<string, V>>;

  constructor(load: (keys: readonly string[]) => Promise<ReadonlyMap<string, V>>) {
    this.load = load;
  }

  get(key: string): Promise<V | null> {
    let value = this.values.get(key);
    if (value === undefined) {
      value = new Promise((resolve, reject) => {
        if (this.pending.length === 0) setImmediate(() => void this.flush());
        this.pending.push({ key, resolve, reject });
      });
      this.values.set(key, value);
    }
    return value;
  }

  /** Loads the keys not loaded yet, at once. */
  async preload(keys: readonly string[]): Promise<void> {
    await Promise.all(keys.map((k) => this.get(k)));
  }

  private async flush(): Promise<void> {
    const batch = this.pending;
    this.pending = [];
    for (let i = 0; i < batch.length; i += loadChunk) {
      const part = batch.slice(i, i + loadChunk);
      try {
        const found = await this.load(part.map((p) => p.key));
        for (const p of part) p.resolve(found.get(p.key) ?? null);
      } catch (error) {
        for (const p of part) p.reject(error);
      }
    }
  }
}

/** Keys per load query. */
const loadChunk = 1_000;

const byId = <T extends { readonly id: string }>(list: readonly T[]) => new Map(list.map((x) => [x.id, x]));

/**
 * What rendering reads besides the variant itself: items, other variants (url slugs of linked
 * items), assets. Reads go through one transaction and are cached for the batch; lookups made
 * while many variants render at once are fetched together.
 */
export class RenderContext {
  private readonly items: BatchLoader<ContentItemRecord>;
  private readonly variants: BatchLoader<VariantRecord[]>;
  private readonly assets: BatchLoader<AssetView>;
  private readonly renditions: BatchLoader<RenditionRecord>;

  readonly tx: UnitOfWork;
  readonly projectId: string;
  readonly model: ModelView;
  readonly assetsBase: string;

  constructor(options: { tx: UnitOfWork; projectId: string; model: ModelView; assetsBase: string }) {
    this.tx = options.tx;
    this.projectId = options.projectId;
    this.model = options.model;
    this.assetsBase = options.assetsBase;
    const { tx, projectId } = options;
    this.items = new BatchLoader(async (ids) => byId(await tx.items.findMany(projectId, ids)));
    this.variants = new BatchLoader(async (itemIds) => {
      const out = new Map<string, VariantRecord[]>(itemIds.map((id) => [id, []]));
      for (const v of await tx.variants.listByItems(projectId, itemIds)) out.get(v.itemId)?.push(v);
      return out;
    });
    this.assets = new BatchLoader(async (ids) => {
      const assets = await tx.assets.findMany(projectId, ids);
      const files = byId(await tx.binaryFiles.getMany(projectId, [...new Set(assets.map((a) => a.fileId))]));
      const out = new Map<string, AssetView>();
      for (const asset of assets) {
        const file = files.get(asset.fileId);
        if (file) out.set(asset.id, { asset, file, url: assetUrl(this.assetsBase, file) });
      }
      return out;
    });
    this.renditions = new BatchLoader(async (ids) =>
      byId(await tx.model.findMany<RenditionBody>(projectId, 'rendition', ids)),
    );
  }

  item(id: string): Promise<ContentItemRecord | null> {
    return this.items.get(id);
  }

  async preloadItems(ids: readonly string[]): Promise<void> {
    await this.items.preload(ids);
  }

  async variantsOf(itemId: string): Promise<VariantRecord[]> {
    return (await this.variants.get(itemId)) ?? [];
  }

  /** The elements a channel shows of a variant, or null when the channel has no version of it. */
  static versionOf(
    variant: VariantRecord,
    channel: DeliveryChannel,
  ): { elements: StoredElements; lastModified: string; workflowId: string; stepId: string } | null {
    if (channel === 'preview')
      return {
        elements: variant.elements,
        lastModified: variant.lastModified.toISOString(),
        workflowId: variant.workflowId,
        stepId: variant.stepId,
      };
    if (!variant.published) return null;
    return {
      elements: variant.published.elements,
      lastModified: variant.published.lastModified,
      workflowId: variant.published.workflowId,
      stepId: 'c199950d-99f0-4983-b711-6c4c91624b22',
    };
  }

  /** The url slug of an item in a language and channel ('' when it has none). */
  async urlSlugOf(item: ContentItemRecord, languageId: string, channel: DeliveryChannel): Promise<string> {
    const variant = (await this.variantsOf(item.id)).find((v) => v.languageId === languageId);
    const version = variant ? RenderContext.versionOf(variant, channel) : null;
    if (!version) return '';
    for (const e of this.model.elementsOf(item.typeId)) {
      if (e.def.type !== 'url_slug') continue;
      const value = version.elements[e.def.id]?.value;
      return typeof value === 'string' ? value : '';
    }
    return '';
  }

  asset(id: string): Promise<AssetView | null> {
    return this.assets.get(id);
  }

  rendition(id: string): Promise<RenditionRecord | null> {
    return this.renditions.get(id);
  }
}
