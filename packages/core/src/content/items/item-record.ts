/** A content item (SPEC 2.2): metadata only; content lives in its language variants. */
export interface ContentItemRecord {
  readonly projectId: string;
  readonly id: string;
  readonly name: string;
  readonly codename: string;
  readonly externalId: string | null;
  readonly typeId: string;
  readonly collectionId: string;
  /** Deprecated sitemap references; kept as sent (v1 still has them). */
  readonly sitemapLocations: { id: string }[];
  readonly lastModified: Date;
}

/**
 * The Management API form of an item (reference §2.2; fields as management-sdk-js
 * `view-content-item.json` and `fake-bulk-get-items-with-variants.json` have them).
 */
export type ContentItemJson = {
  readonly id: string;
  readonly name: string;
  readonly codename: string;
  readonly type: { readonly id: string };
  /** v2 only. */
  readonly collection?: { readonly id: string };
  /** v2 only: the spaces of the item's collection. */
  readonly spaces?: { readonly id: string }[];
  readonly sitemap_locations: { readonly id: string }[];
  /** Only when set. */
  readonly external_id?: string;
  readonly last_modified: string;
};

/**
 * The Management API form of an item. v2 always carries `collection` and `spaces` (the SDK reads
 * both without null checks); v1 has neither. `external_id` only when set.
 */
export function itemJson(
  r: ContentItemRecord,
  options: { version: 'v1' | 'v2'; spaces: readonly string[] },
): ContentItemJson {
  return {
    id: r.id,
    name: r.name,
    codename: r.codename,
    type: { id: r.typeId },
    ...(options.version === 'v2'
      ? { collection: { id: r.collectionId }, spaces: options.spaces.map((id) => ({ id })) }
      : {}),
    sitemap_locations: r.sitemapLocations.map((s) => ({ id: s.id })),
    ...(r.externalId === null ? {} : { external_id: r.externalId }),
    last_modified: r.lastModified.toISOString(),
  };
}
