import type { PageRequest, KeyedPage } from '../../ports/paging.ts';
import type { StoredElementValue, VariantSchedule } from '../variants/variant-record.ts';

/**
 * Through which interface a version was saved, from what the actor carries: a person's editor
 * session, a management key (the Management API and the MCP server alike), the operator (CLI,
 * admin API), a background task (scheduled publishing), or `system` for the baseline recorded for
 * a variant that existed before history was kept.
 */
export type VersionInterface = 'editor' | 'management_api' | 'operator' | 'background_task' | 'system';

/** What a version holds besides its elements: the variant's other fields at that time. */
export interface VersionMeta {
  readonly last_modified: string;
  readonly schedule: VariantSchedule;
  readonly due_date: string | null;
  readonly contributors: readonly { readonly id: string }[];
  readonly note: string | null;
}

/**
 * One stored version of a language variant. Versions of a variant are numbered 1, 2, … (`seq`).
 * A snapshot holds every element value; any other version holds only the values that changed
 * since version `seq - 1` (null: the element was removed), and `baseSeq` names the snapshot its
 * chain starts from, so a version is rebuilt from at most the versions `baseSeq..seq`.
 */
export interface StoredVersion {
  readonly id: string;
  readonly projectId: string;
  readonly itemId: string;
  readonly languageId: string;
  readonly seq: number;
  readonly baseSeq: number;
  readonly isSnapshot: boolean;
  readonly createdAt: Date;
  readonly userId: string | null;
  readonly via: VersionInterface;
  /** The core operation that saved it: `create`, `upsert`, `publish`, `new_version`, `restore`, … */
  readonly operation: string;
  readonly workflowId: string;
  readonly stepId: string;
  /** True when this version is the published one (the variant sat in the Published step). */
  readonly isPublished: boolean;
  /** The version whose elements Delivery served after this save (null: nothing published). */
  readonly publishedVersionId: string | null;
  /** Ids of the elements whose values differ from the previous version (every filled one at first). */
  readonly changedElements: readonly string[];
  readonly elements: Readonly<Record<string, StoredElementValue | null>>;
  readonly meta: VersionMeta;
  /** The version a restore copied. */
  readonly restoredFrom: string | null;
}

export type NewStoredVersion = StoredVersion;

/** Names one variant. */
export interface VariantRef {
  readonly projectId: string;
  readonly itemId: string;
  readonly languageId: string;
}

/** Stored versions of language variants (migration 0019). */
export interface VariantHistoryRepository {
  /** The newest version of the variant without its element values (`elements` empty), or null when it has none. */
  latest(ref: VariantRef): Promise<StoredVersion | null>;
  insert(version: NewStoredVersion): Promise<void>;
  /** One version of the variant by id, or null. */
  get(ref: VariantRef, id: string): Promise<StoredVersion | null>;
  /** The versions `fromSeq..toSeq` of the variant, oldest first. */
  range(ref: VariantRef, fromSeq: number, toSeq: number): Promise<StoredVersion[]>;
  /** A page of the variant's versions, newest first, without their element values (`elements` empty); the key is `[seq]` (keyset paging). */
  page(ref: VariantRef, request: PageRequest): Promise<KeyedPage<StoredVersion>>;
  /** Marks a version saved in this transaction as a restore of `restoredFrom`. */
  markRestore(ref: VariantRef, id: string, restoredFrom: string): Promise<void>;
  /**
   * Up to `limit` variants with versions the retention would remove: one older than `before`, or
   * more than `keepVersions` versions (either null: that rule is off).
   */
  variantsToPrune(input: { before: Date | null; keepVersions: number | null; limit: number }): Promise<VariantRef[]>;
  /** Stores a version's full elements as a snapshot (its content unchanged) after pruning broke its chain. */
  rewrite(
    ref: VariantRef,
    id: string,
    change: { baseSeq: number; isSnapshot: boolean; elements?: Record<string, StoredElementValue | null> },
  ): Promise<void>;
  /** Removes the versions; returns how many. */
  delete(ref: VariantRef, ids: readonly string[]): Promise<number>;
}
