/**
 * The delivery index as the Delivery and Preview APIs read it (DESIGN.md, read path). The indexer
 * renders every variant into the exact Delivery API JSON and stores it per (project, channel,
 * item, language); Delivery never reads the content tables. The index is composed
 * (compose-index.ts) of a ledger (ledger-port.ts: watermark, Sync feeds, model documents; store-sql)
 * and a document engine (document-port.ts: `index-sql` tables or `index-elasticsearch`).
 */

/** Published content (Delivery API) or the latest versions (Delivery Preview API). */
export type DeliveryChannel = 'production' | 'preview';

/** One element as the Delivery API returns it: `type`, `name`, `value`, plus kind-specific fields. */
export interface DeliveryElement {
  readonly type: string;
  readonly name: string;
  readonly value: unknown;
  readonly [kindSpecific: string]: unknown;
}

/** One content item in one language, exactly as the Delivery API returns it (SPEC 2.7). */
export interface DeliveryItem {
  readonly system: {
    readonly id: string;
    readonly name: string;
    readonly codename: string;
    readonly language: string;
    readonly type: string;
    readonly collection: string;
    readonly sitemap_locations: readonly string[];
    readonly last_modified: string;
    readonly workflow?: string;
    readonly workflow_step?: string;
  };
  readonly elements: Readonly<Record<string, DeliveryElement>>;
}

/** An indexed variant: its document and what queries and linked-item resolution need. */
export interface IndexedVariant {
  readonly itemId: string;
  /** The language of the variant found (may differ from the one asked for, through fallbacks). */
  readonly language: string;
  readonly item: DeliveryItem;
  /**
   * Codenames of the items this variant links to (linked-items elements and items in rich text;
   * not components), in document order, without repeats. `depth` follows these.
   */
  readonly linkedItemCodenames: readonly string[];
  /**
   * Codenames the items it links to link to in turn (their linked-items and subpages elements, in
   * any language of the channel), as of when it was indexed: a hint that lets a reader fetch two
   * levels of `depth` at once. It may be stale or incomplete (the reader fetches what it missed);
   * absent in documents indexed before it was written and when there is none.
   */
  readonly nextLinkedItemCodenames?: readonly string[];
  /**
   * The components of its rich text elements, keyed by their `modular_content` codename; always
   * returned with the item, whatever the depth (SPEC 4.3 depth rule).
   */
  readonly components: Readonly<Record<string, DeliveryItem>>;
  /**
   * The file of each image its rich text shows (its components' too), by asset id: what GraphQL's
   * `_RichTextAsset` answers beside the Delivery `images` entry (SPEC 2.8). Absent when there is
   * none, and in documents indexed before it was recorded.
   */
  readonly richTextAssets?: Readonly<Record<string, RichTextAssetFile>>;
}

/** An image file as an asset element shows it: file name, MIME type, bytes. */
export interface RichTextAssetFile {
  readonly name: string;
  readonly type: string;
  readonly size: number;
}

/** Filter operators (SPEC 4.3 rules 2–6); `a=b` without brackets is `eq`. */
export const filterOperators = [
  'eq',
  'neq',
  'empty',
  'nempty',
  'lt',
  'lte',
  'gt',
  'gte',
  'range',
  'in',
  'nin',
  'contains',
  'any',
  'all',
] as const;
export type FilterOperator = (typeof filterOperators)[number];

/**
 * One filter. `property` is `system.<name>` (id, name, codename, language, type, collection,
 * last_modified, workflow, workflow_step) or `elements.<element codename>`. `values` holds the
 * comma-separated values (one for eq/neq/lt…; two for range; none for empty/nempty; a list for
 * in/nin/any/all; one for contains).
 */
export interface ItemFilter {
  readonly property: string;
  readonly operator: FilterOperator;
  readonly values: readonly string[];
}

export interface ItemOrder {
  /** `system.<name>` or `elements.<element codename>`. */
  readonly property: string;
  readonly direction: 'asc' | 'desc';
}

/**
 * Filters combined with AND and OR (the GraphQL `where`'s `AND` and `OR`), nesting: `allOf` holds
 * when every member holds (none: true), `anyOf` when one does (none: false). A filter inside
 * means what it means in `filters`.
 */
export type ItemCondition =
  ItemFilter | { readonly allOf: readonly ItemCondition[] } | { readonly anyOf: readonly ItemCondition[] };

/** A list query over the index. Filters apply to the resolved variants only (never to linked items). */
export interface ItemQuery {
  readonly projectId: string;
  readonly channel: DeliveryChannel;
  /**
   * Languages to try for each item, in order: the requested language, then its fallbacks. An item
   * appears once, in the first language of the list it has a variant in. One entry: no fallbacks.
   */
  readonly languages: readonly string[];
  readonly filters: readonly ItemFilter[];
  /** Conditions that must hold as well as `filters` (absent: none). */
  readonly conditions?: readonly ItemCondition[];
  /** Null: by codename, ascending (SPEC 4.3 default). Ties always break by codename. */
  readonly order: ItemOrder | null;
  /** Further orders for the ties of `order`, in turn, before the codename (ignored without `order`). */
  readonly thenBy?: readonly ItemOrder[];
  readonly skip: number;
  /** Null: no limit. */
  readonly limit: number | null;
  readonly isTotalCountNeeded: boolean;
  /**
   * The project's content types as the caller knows them (type codename → element codename →
   * element kind, e.g. `number`, `text`, `modular_content`), when it has them. An adapter may use
   * it to plan: to compare only the value type an element can hold, or to know that every item of
   * the filtered types has an element. Answers must be the same with or without it.
   */
  readonly typeElements?: TypeElements;
  /**
   * A watermark the caller already holds (Delivery's, kept in memory by `indexed` signals) to read
   * at: an index that pins reads (the search index) honours it while it is young enough and saves
   * reading the watermark; the SQL index ignores it.
   */
  readonly pin?: ReadPin | undefined;
}

/** Type codename → element codename → the element's Delivery `type`. */
export type TypeElements = Readonly<Record<string, Readonly<Record<string, string>>>>;

/**
 * The content types each restricted element allows, which Delivery JSON does not show (GraphQL's
 * per-element unions): type codename → element key (`<snippet>__<element>` for a snippet's) →
 * allowed type codenames. Linked items and subpages (`allowed_content_types`) and rich text (its
 * `allowed_content_types`, for components and linked items); an element without a restriction is
 * absent.
 */
export type TypeLinks = Readonly<Record<string, Readonly<Record<string, readonly string[]>>>>;

export interface ItemQueryResult {
  readonly items: readonly IndexedVariant[];
  /** Items matching the filters (ignoring skip/limit) when asked for, else null. */
  readonly totalCount: number | null;
  /**
   * The watermark this answer was read at, when the index pins reads to one (the search index):
   * pass it to `itemsByCodename` for the same answer's linked items, so that one response reads
   * one state and the watermark once. Absent: the index has nothing to pin (the SQL index).
   */
  readonly pin?: ReadPin;
}

/**
 * A watermark a read was pinned to and when it was read (ms since the epoch, the index's clock).
 * An index honours it only while it is younger than half its grace time for superseded versions
 * (older: it reads the watermark again), so a pin never selects versions already deleted.
 */
export interface ReadPin {
  readonly watermark: number;
  readonly readAt: number;
}

/** A language as the index knows it: its Delivery JSON and its fallback. */
export interface IndexedLanguage {
  readonly system: { readonly id: string; readonly name: string; readonly codename: string };
  readonly fallbackCodename: string | null;
  readonly isDefault: boolean;
}

/** One entry of the Sync API change feed of a channel. */
export interface IndexChange {
  /** The project sequence of the change event that produced it. */
  readonly seq: number;
  readonly changeType: 'changed' | 'deleted';
  readonly itemCodename: string;
  readonly itemId: string;
  readonly language: string;
  readonly type: string;
  readonly collection: string;
  readonly timestamp: string;
  /**
   * The `system` object of the variant's last document in the channel when the change was
   * recorded: the new one for `changed`, the removed one for `deleted` (its name, last_modified
   * and workflow). Absent where the adapter does not record it (older rows).
   */
  readonly system?: DeliveryItem['system'];
}

/** Model objects the Sync API v2 reports (its `types`, `taxonomies` and `languages` arrays). */
export type ModelChangeKind = 'type' | 'taxonomy' | 'language';

/** One entry of the model change feed of a channel: the last change of a type, taxonomy or language. */
export interface IndexModelChange {
  /** The project sequence of the change event that produced it. */
  readonly seq: number;
  readonly kind: ModelChangeKind;
  /** `changed`: added or edited; `deleted`: removed (a language: deactivated). */
  readonly changeType: 'changed' | 'deleted';
  /**
   * The Sync `data.system` of the object (its last known state for a deletion): `id`, `name`,
   * `codename`, plus `last_modified` for types and taxonomies.
   */
  readonly system: {
    readonly id: string;
    readonly name: string;
    readonly codename: string;
    readonly last_modified?: string;
  };
  readonly timestamp: string;
}

export interface DeliveryIndexReader {
  /** The project sequence up to which the index has applied every change event (0: none). */
  watermark(projectId: string): Promise<number>;
  queryItems(query: ItemQuery): Promise<ItemQueryResult>;
  /** Variants of the items with these codenames, through the same language list (for `modular_content`). */
  itemsByCodename(options: {
    projectId: string;
    channel: DeliveryChannel;
    languages: readonly string[];
    codenames: readonly string[];
    /** The `pin` of the list these items are linked from (see `ItemQueryResult.pin`); an index may ignore it. */
    pin?: ReadPin | undefined;
  }): Promise<IndexedVariant[]>;
  /** The project's content types in Delivery JSON (`{system, elements}`), by codename ascending. */
  types(projectId: string): Promise<Record<string, unknown>[]>;
  /**
   * The allowed types of the project's restricted elements (beside `types`, whose JSON stays
   * Delivery's). Optional: without it, or for a model indexed before it was recorded, `{}`.
   */
  typeLinks?(projectId: string): Promise<TypeLinks>;
  /** The project's taxonomy groups in Delivery JSON (`{system, terms}`), by codename ascending. */
  taxonomies(projectId: string): Promise<Record<string, unknown>[]>;
  /** Active languages, the default first. */
  languages(projectId: string): Promise<IndexedLanguage[]>;
  /** Items (in every language) whose variants link to the item or use the asset. */
  usedIn(options: {
    projectId: string;
    channel: DeliveryChannel;
    target: { readonly itemCodename: string } | { readonly assetId: string };
  }): Promise<IndexedVariant[]>;
  /** Changes of a channel after `afterSeq`, ascending, at most `limit` (Sync API). */
  changesSince(options: {
    projectId: string;
    channel: DeliveryChannel;
    afterSeq: number;
    limit: number;
  }): Promise<IndexChange[]>;
  /**
   * Model changes of a channel with `afterSeq < seq <= toSeq`, by sequence, then kind and
   * id (Sync API). Optional: an index without it reports no model changes.
   */
  modelChangesSince?(options: {
    projectId: string;
    channel: DeliveryChannel;
    afterSeq: number;
    toSeq: number;
  }): Promise<IndexModelChange[]>;
}
