import type { DeliveryChannel, IndexedLanguage, IndexedVariant, TypeLinks } from '../index-port.ts';

/**
 * The writer side of the delivery index, used by the indexer only. Readers never see a batch half
 * applied: an adapter commits a batch's documents, its Sync changes and the watermark together.
 */

/** One rendered variant with what the index needs beyond the Delivery JSON. */
export interface IndexDocument extends IndexedVariant {
  /** Items whose change re-renders this document (linked, inserted and hyperlinked items). */
  readonly dependsOnItemIds: readonly string[];
  /** Assets the document shows (asset elements and rich text images and links). */
  readonly assetIds: readonly string[];
  /** Codenames of every item the variant references (linked items and rich text links): `usedIn`. */
  readonly usesItemCodenames: readonly string[];
}

/** Every document of one item in one channel: what is not listed is removed. */
export interface ItemDocuments {
  readonly itemId: string;
  readonly channel: DeliveryChannel;
  readonly documents: readonly IndexDocument[];
}

/** Types, taxonomies and languages of a project, in their Delivery JSON. */
export interface IndexedModel {
  /** By codename ascending. */
  readonly types: readonly Record<string, unknown>[];
  /** By codename ascending. */
  readonly taxonomies: readonly Record<string, unknown>[];
  /** Active languages, the default first. */
  readonly languages: readonly IndexedLanguage[];
  /** Restricted elements' allowed types, kept beside `types` (their Delivery JSON stays as is). */
  readonly typeLinks?: TypeLinks;
}

export interface IndexBatch {
  readonly projectId: string;
  /** The last event sequence the batch covers; it becomes the watermark. */
  readonly toSeq: number;
  /** When the last covered change happened: the timestamp of the Sync changes recorded. */
  readonly timestamp: Date;
  /** Full replacements of items' documents, per channel. */
  readonly items: readonly ItemDocuments[];
  /** Replaces the model documents when present (ignored in a partial batch). */
  readonly model: IndexedModel | null;
  /**
   * A part of a re-render too large for one transaction: its documents and their Sync changes (at
   * `toSeq`) are written, but the watermark stays until the last part, which is not partial.
   * Readers may see some parts' documents before the watermark moves; Sync reads only changes at
   * or below the watermark.
   */
  readonly isPartial?: boolean;
}

export interface DeliveryIndexWriter {
  /** The sequence up to which the project is indexed (0: nothing yet). */
  watermark(projectId: string): Promise<number>;
  /** Whether the project has model documents (false before its first batch). */
  hasModel(projectId: string): Promise<boolean>;
  /** Ids of every item with a document in any channel. */
  indexedItemIds(projectId: string): Promise<string[]>;
  /** Ids of the items whose documents depend on any of these items or assets. */
  dependents(options: {
    projectId: string;
    itemIds: readonly string[];
    assetIds: readonly string[];
  }): Promise<string[]>;
  /**
   * Applies the batch in one transaction when `toSeq` is above the watermark (false and nothing
   * written otherwise: redelivered events are ignored). An adapter that has readers in other
   * processes announces the new watermark with the `indexed` signal. A document whose JSON differs from the
   * stored one, or a removed one, records a Sync change of its channel at `toSeq`; so does, in
   * every channel, a type, taxonomy or language of `model` added, edited or removed against the
   * stored model.
   */
  apply(batch: IndexBatch): Promise<boolean>;
  /** Removes every document, change and the watermark of the project (rebuild from scratch). */
  reset(projectId: string): Promise<void>;
}
