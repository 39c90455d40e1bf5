import type { UnitOfWork } from '../../ports/store.ts';
import type { ContentItemRecord } from '../../content/items/item-record.ts';
import type { StoredElements, VariantRecord } from '../../content/variants/variant-record.ts';
import type { AssetRecord, BinaryFileRecord } from '../../content/assets/asset-record.ts';
import { assetUrl } from '../../content/assets/assets.ts';
import type { DeliveryChannel } from '../index-port.ts';
import type { ModelView } from './model-view.ts';

/** An asset as rendering shows it: file facts, URL and descriptions. */
export interface AssetView {
  readonly asset: AssetRecord;
  readonly file: BinaryFileRecord;
  readonly url: string;
}

/**
 * What rendering reads besides the variant itself: items, other variants (url slugs of linked
 * items), assets. Reads go through one transaction and are cached for the batch.
 */
export class RenderContext {
  private readonly items = new Map<string, ContentItemRecord | null>();
  private readonly variants = new Map<string, VariantRecord[]>();
  private readonly assets = new Map<string, AssetView | null>();

  readonly tx: UnitOfWork;
  readonly projectId: string;
  readonly model: ModelView;
  readonly assetsBase: string;

  constructor(options: { tx: UnitOfWork; projectId: string; model: ModelView; assetsBase: string }) {
    this.tx = options.tx;
    this.projectId = options.projectId;
    this.model = options.model;
    this.assetsBase = options.assetsBase;
  }

  async item(id: string): Promise<ContentItemRecord | null> {
    if (!this.items.has(id)) this.items.set(id, await this.tx.items.find(this.projectId, { id }));
    return this.items.get(id) ?? null;
  }

  async preloadItems(ids: readonly string[]): Promise<void> {
    const missing = ids.filter((id) => !this.items.has(id));
    if (missing.length === 0) return;
    const found = await this.tx.items.findMany(this.projectId, missing);
    for (const id of missing) this.items.set(id, null);
    for (const item of found) this.items.set(item.id, item);
  }

  async variantsOf(itemId: string): Promise<VariantRecord[]> {
    let list = this.variants.get(itemId);
    if (!list) {
      list = await this.tx.variants.listByItem(this.projectId, itemId);
      this.variants.set(itemId, list);
    }
    return list;
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

  async asset(id: string): Promise<AssetView | null> {
    if (!this.assets.has(id)) {
      const asset = await this.tx.assets.find(this.projectId, { id });
      const file = asset ? await this.tx.binaryFiles.get(this.projectId, asset.fileId) : null;
      this.assets.set(id, asset && file ? { asset, file, url: assetUrl(this.assetsBase, file) } : null);
    }
    return this.assets.get(id) ?? null;
  }
}
