import type { Problems } from '../../model/shared/problems.ts';

/*
 * The interface of `normalizeRichText` (SPEC 2.4), re-exported by index.ts. A module of its own so
 * the implementation files can import it without importing index.ts, which imports them.
 */

/** Turns a reference found in the HTML into the id to store, or null (after recording a problem). */
export interface RichTextRefs {
  /** `data-item-id` / `data-item-external-id` on links and item objects. */
  resolveItem(ref: { id: string } | { external_id: string }, path: string): string | null;
  /** `data-asset-id` / `data-asset-external-id` on figures. */
  resolveAsset(ref: { id: string } | { external_id: string }, path: string): string | null;
  /**
   * `data-codename` on item objects and `data-item-codename` on links. Optional: without it a
   * codename reference is refused with a problem.
   */
  resolveItemCodename?(codename: string, path: string): string | null;
  /** `data-asset-codename` on figures. Optional, as `resolveItemCodename`. */
  resolveAssetCodename?(codename: string, path: string): string | null;
}

export interface RichTextResult {
  /** The value in response form (SPEC 2.4 rules 2, 3, 5): what the Management API returns. */
  readonly html: string;
  /**
   * `data-id` of every component object, in document order, lower-cased (as written in `html`);
   * each appears once (a repeat is refused).
   */
  readonly componentIds: readonly string[];
  /**
   * Ids of the items linked (`<a data-item-id>`) or embedded (`<object data-type="item">`), in
   * document order, without repeats, as the resolvers returned them.
   */
  readonly itemIds: readonly string[];
  /** Ids of the assets placed (`<figure>`) or linked (`<a data-asset-id>`), in document order, without repeats. */
  readonly assetIds: readonly string[];
}

export interface NormalizeRichTextOptions {
  /** The request value: an HTML string in the Management API dialect. */
  readonly html: unknown;
  /** JSON path of the value for problems, e.g. `elements[3].value`. */
  readonly path: string;
  readonly problems: Problems;
  readonly refs: RichTextRefs;
}
