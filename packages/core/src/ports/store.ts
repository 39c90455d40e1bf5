import type { ApiKeyKind, ApiKeyRecord } from '../domain/api-key.ts';
import type { ChangeEvent, NewChangeEvent } from '../domain/change-event.ts';
import type { Project, User } from '../domain/project.ts';
import type { ModelKind, ModelRecord, RecordKey } from '../domain/model-record.ts';
import type { ContentItemRecord } from '../content/items/item-record.ts';
import type { VariantRecord } from '../content/variants/variant-record.ts';
import type { StoredVersion, VariantHistoryRepository } from '../content/history/version-record.ts';
import type { VariantQuery, VariantQueryKey, VariantQueryPage } from '../content/variants/variant-query.ts';
import type { ScheduledJob } from '../content/workflow/scheduled-job.ts';
import type { AssetFolderTree, AssetRecord, BinaryFileRecord } from '../content/assets/asset-record.ts';
import type { NoticeRepository, WebhookQueueRepository, WebhookRepository } from './webhooks.ts';
import type { BackgroundTaskRepository } from '../tasks/background-task.ts';
import type { ImageCacheRepository } from './image-cache.ts';
import type { PeopleRepository } from './people.ts';
import type { CommentRepository } from '../content/comments/comment-record.ts';
import type { PresenceRepository } from './presence.ts';
import type { AuditTrail } from '../audit/audit-port.ts';

export type { KeyedPage, PageKey, PageRequest } from './paging.ts';
import type { KeyedPage, PageRequest } from './paging.ts';

/**
 * The relational store. Every read and write happens inside `transaction`, so an operation sees
 * one consistent state and its writes and change events commit together or not at all.
 */
export interface Store {
  /**
   * Runs `work` in one transaction: commits when it resolves, rolls back when it throws (and
   * rethrows). Adapters translate driver errors: a unique violation becomes a `conflict`
   * LecternError, a serialization failure is retried by the adapter or becomes `conflict`.
   */
  transaction<T>(work: (tx: UnitOfWork) => Promise<T>): Promise<T>;
  /**
   * Runs read-only `work` outside a transaction: each statement sees the latest commit, and no
   * BEGIN and COMMIT are sent (two round trips fewer, for a read of one statement on every
   * request, e.g. a key's lookup). Never for writes: they would not roll back together. Optional;
   * without it, callers use `transaction`.
   */
  read?<T>(work: (tx: UnitOfWork) => Promise<T>): Promise<T>;
  /** Resolves when the store answers a trivial query; for readiness probes. */
  ping(): Promise<void>;
  /** Closes connections. Pending transactions finish first. */
  close(): Promise<void>;
}

export interface UnitOfWork {
  readonly projects: ProjectRepository;
  readonly users: UserRepository;
  readonly apiKeys: ApiKeyRepository;
  readonly outbox: Outbox;
  readonly outboxRelay: OutboxRelayRepository;
  readonly model: ModelRepository;
  readonly rateLimits: RateLimitRepository;
  readonly items: ContentItemRepository;
  readonly variants: VariantRepository;
  readonly scheduledJobs: ScheduledJobRepository;
  readonly binaryFiles: BinaryFileRepository;
  readonly assets: AssetRepository;
  readonly assetFolders: AssetFolderRepository;
  readonly webhooks: WebhookRepository;
  readonly webhookQueue: WebhookQueueRepository;
  readonly notices: NoticeRepository;
  readonly backgroundTasks: BackgroundTaskRepository;
  readonly imageCache: ImageCacheRepository;
  readonly pendingUploads: PendingUploadRepository;
  readonly people: PeopleRepository;
  readonly comments: CommentRepository;
  readonly presence: PresenceRepository;
  /** Versions of language variants (version history). */
  readonly history: VariantHistoryRepository;
  /** The audit log (issue 31); the store writes the transaction's entry before commit. */
  readonly audit: AuditTrail;
  /**
   * Memory the store keeps for its whole life, shared by all its transactions (optional): for
   * values derived from the database under keys that tell when they are out of date (the content
   * model by its version, `projectModelMemo`).
   */
  readonly memo?: Map<string, unknown>;
}

export interface ProjectRepository {
  insert(project: Project): Promise<void>;
  get(id: string): Promise<Project | null>;
  /** All projects, oldest first. */
  list(): Promise<Project[]>;
  /**
   * Removes the project with everything stored under it (keys, model, content, assets, settings)
   * and its scheduled jobs; true when it existed. Its change events and index rows stay.
   */
  delete(id: string): Promise<boolean>;
  /** Applies the changes and returns the updated project, or null when absent. */
  update(
    id: string,
    changes: { name?: string; environment?: string; isSecureAccess?: boolean; isProduction?: boolean },
  ): Promise<Project | null>;
}

export interface UserRepository {
  /**
   * Stores the user unless one with that e-mail exists (another writer may have stored it a moment
   * ago); returns the stored user either way.
   */
  insert(user: User): Promise<User>;
  get(id: string): Promise<User | null>;
  findByEmail(email: string): Promise<User | null>;
}

export interface ApiKeyRepository {
  /**
   * Stores a new key. Throws a `conflict` LecternError (API_KEY_SLOT_TAKEN) when an active key
   * already fills its slot: one per (project, kind) for shared kinds, one per (project, user) for
   * management keys.
   */
  insert(key: ApiKeyRecord): Promise<void>;
  get(id: string): Promise<ApiKeyRecord | null>;
  /**
   * A key with, in the same read, the body of its owner's `project_user` document in the key's
   * project (null when the key has no owner or the owner was never invited).
   */
  getWithOwner(id: string): Promise<{ key: ApiKeyRecord; owner: Record<string, unknown> | null } | null>;
  /** Keys of a project, newest first; revoked ones too. */
  listByProject(projectId: string): Promise<ApiKeyRecord[]>;
  /** The unrevoked key filling a slot, if any. */
  findActive(slot: { projectId: string; kind: ApiKeyKind; ownerUserId: string | null }): Promise<ApiKeyRecord | null>;
  /** Marks the key revoked at `at` unless it already is; true when this call revoked it. */
  revoke(id: string, at: Date): Promise<boolean>;
}

/** The transactional outbox (DESIGN.md, write path). */
export interface Outbox {
  /**
   * Appends events for one project, assigning the next gap-free sequence numbers in order. The
   * per-project counter is locked until commit, so concurrent writers of one project serialize
   * here and sequence order equals commit order.
   */
  append(projectId: string, events: readonly NewChangeEvent[], occurredAt: Date): Promise<ChangeEvent[]>;
  /**
   * `append` at the end of the transaction, for a caller that needs no sequence numbers: the store
   * writes them in its last statement before commit, together with the transaction's audit entry,
   * and numbers them while the transaction commits (the counter's lock taken inside the commit,
   * not across round trips). Same guarantees as `append`; events appended so follow those appended
   * with `append` in the same transaction.
   */
  appendAtCommit(projectId: string, events: readonly NewChangeEvent[], occurredAt: Date): void;
  /** Events of a project with seq > `afterSeq`, ascending, at most `limit`. */
  readAfter(options: { projectId: string; afterSeq: number; limit: number }): Promise<ChangeEvent[]>;
  /** The highest committed sequence of the project (0 when none). */
  latestSeq(projectId: string): Promise<number>;
}

/** A project whose outbox a relay has leased, and the last sequence already relayed. */
export interface RelayClaim {
  readonly projectId: string;
  readonly relayedSeq: number;
}

/**
 * Relay progress per project, with a lease so that one relay at a time publishes a project's
 * events (any number of relays may run against one database).
 */
export interface OutboxRelayRepository {
  /**
   * Leases, until `until`, at most `limit` projects whose committed events are ahead of what was
   * relayed and whose lease is free, expired or already `owner`'s.
   */
  claim(options: { owner: string; now: Date; until: Date; limit: number }): Promise<RelayClaim[]>;
  /**
   * Records that the project's events up to `seq` are published and renews the lease until
   * `until`; false (and nothing written) when `owner` no longer holds the lease.
   */
  advance(options: { projectId: string; owner: string; seq: number; until: Date }): Promise<boolean>;
  /** Gives the lease up (no-op unless `owner` holds it). */
  release(options: { projectId: string; owner: string }): Promise<void>;
  /** Committed events not relayed yet, over every project, and when the oldest of them occurred. */
  pending(): Promise<{ events: number; oldestAt: Date | null }>;
}

/** Content model documents (languages, types, snippets, taxonomies, collections, workflows, spaces). */
export interface ModelRepository {
  /** Every object of a kind (the caller names the body type it stored under that kind) in the project, in creation order. */
  list<B extends object = Record<string, unknown>>(projectId: string, kind: ModelKind): Promise<ModelRecord<B>[]>;
  /** The objects of a kind among `ids` that exist (any order). */
  findMany<B extends object = Record<string, unknown>>(
    projectId: string,
    kind: ModelKind,
    ids: readonly string[],
  ): Promise<ModelRecord<B>[]>;
  /**
   * One object by id, codename or external id, or null. `isForUpdate` locks the row until commit,
   * so read-modify-write sequences of concurrent requests apply one after the other.
   */
  find<B extends object = Record<string, unknown>>(
    projectId: string,
    kind: ModelKind,
    key: RecordKey,
    options?: { isForUpdate?: boolean },
  ): Promise<ModelRecord<B> | null>;
  /** Stores a new object. A taken codename or external id of the same kind throws `conflict`. */
  insert(record: ModelRecord<object>): Promise<void>;
  /** Replaces the stored codename, external id, body and last_modified of an existing object. */
  update(record: ModelRecord<object>): Promise<void>;
  /** Removes the object; true when it existed. */
  delete(projectId: string, kind: ModelKind, id: string): Promise<boolean>;
  /**
   * Serializes writers of one kind in one project until commit: hold it while generating
   * codenames or checking uniqueness across objects, so two creates cannot both pick one name.
   */
  lockKind(projectId: string, kind: ModelKind): Promise<void>;
}

/** Fixed-window request counters shared by every process on the store (Management rate limits). */
export interface RateLimitRepository {
  /**
   * Counts one request of `keyId` in the current window of each length (milliseconds) and
   * returns each window's count including this request. Atomic across processes. `amount`
   * (default 1) counts that many units instead (0 reads the counts without adding).
   */
  hit(keyId: string, windowsMs: readonly number[], now: Date, amount?: number): Promise<number[]>;
  /** Drops counters of windows that ended before `before`. */
  purge(before: Date): Promise<void>;
}

/** Uploaded binary files (their bytes are in the BlobStore). */
/**
 * The journal of uploads in flight: a blob key is entered before its first byte is stored and
 * left in the transaction that records the file (or once a refused upload's bytes are removed),
 * so bytes a crash leaves behind are always findable.
 */
export interface PendingUploadRepository {
  begin(upload: { key: string; projectId: string; startedAt: Date }): Promise<void>;
  /** Removes the entry (an absent one is no error). */
  end(key: string): Promise<void>;
  /** Entries begun before `before`, oldest first, at most `limit`. */
  startedBefore(before: Date, limit: number): Promise<{ key: string; projectId: string }[]>;
}

export interface BinaryFileRepository {
  insert(file: BinaryFileRecord): Promise<void>;
  get(projectId: string, id: string): Promise<BinaryFileRecord | null>;
  /** The files among `ids` that exist (any order). */
  getMany(projectId: string, ids: readonly string[]): Promise<BinaryFileRecord[]>;
}

/** Assets (SPEC 2.5). */
export interface AssetRepository {
  /** A page of the project's assets in creation order (keyset paging, see KeyedPage). */
  page(projectId: string, request: PageRequest): Promise<KeyedPage<AssetRecord>>;
  /** One asset by id, codename or external id; `isForUpdate` locks its row until commit. */
  find(projectId: string, key: RecordKey, options?: { isForUpdate?: boolean }): Promise<AssetRecord | null>;
  /** The assets among `ids` that exist (any order). */
  findMany(projectId: string, ids: readonly string[]): Promise<AssetRecord[]>;
  /** The asset referencing a binary file, if any. */
  findByFile(projectId: string, fileId: string): Promise<AssetRecord | null>;
  /** Whether a codename is taken by an asset other than `exceptId`. */
  isCodenameTaken(projectId: string, codename: string, exceptId?: string): Promise<boolean>;
  /** A taken codename, external id or file (one asset per file) throws `conflict`. */
  insert(record: AssetRecord): Promise<void>;
  /** Replaces everything but id and project; same conflicts as insert. */
  update(record: AssetRecord): Promise<void>;
  /** Removes the asset; true when it existed. */
  delete(projectId: string, id: string): Promise<boolean>;
  /** Moves the assets in any of `folderIds` to the root, at `at`; returns the moved assets. */
  moveToRoot(projectId: string, folderIds: readonly string[], at: Date): Promise<AssetRecord[]>;
  /** Serializes asset writers of one project until commit (codename and file checks). */
  lock(projectId: string): Promise<void>;
}

/** The asset folder tree of each project, read and written whole. */
export interface AssetFolderRepository {
  /** The tree, or null when the project never had folders; `isForUpdate` locks it until commit. */
  get(projectId: string, options?: { isForUpdate?: boolean }): Promise<AssetFolderTree | null>;
  /** Stores the tree (insert or replace). */
  save(projectId: string, tree: AssetFolderTree): Promise<void>;
}

/** Content items (SPEC 2.2). */
export interface ContentItemRepository {
  /** Every item of the project, in creation order. */
  list(projectId: string): Promise<ContentItemRecord[]>;
  /** A page of the project's items in creation order (keyset paging, see KeyedPage). */
  page(projectId: string, request: PageRequest): Promise<KeyedPage<ContentItemRecord>>;
  /** One item by id, codename or external id; `isForUpdate` locks its row until commit. */
  find(projectId: string, key: RecordKey, options?: { isForUpdate?: boolean }): Promise<ContentItemRecord | null>;
  /**
   * One item, its row locked until commit, with the project's content model version read in the
   * same statement (null when the store keeps none): a value that changes at every commit that
   * changes the model, and never comes back (see `ModelMemo`).
   */
  findForWrite(
    projectId: string,
    key: RecordKey,
  ): Promise<{ item: ContentItemRecord; modelVersion: string | null } | null>;
  /**
   * The item of an external id, its row locked until commit, and in the same statement whether
   * an item with `derivedId` (the id that external id maps to) exists (an upsert by external id),
   * and the project's content model version (as `findForWrite`).
   */
  findByExternalIdForUpsert(
    projectId: string,
    externalId: string,
    derivedId: string,
  ): Promise<{ item: ContentItemRecord | null; isDerivedIdTaken: boolean; modelVersion: string | null }>;
  /** The project's content model version (null when the store keeps none; see `findForWrite`). */
  modelVersion(projectId: string): Promise<string | null>;
  /** The items among `ids` that exist (any order). */
  findMany(projectId: string, ids: readonly string[]): Promise<ContentItemRecord[]>;
  /** How many items are of a content type, and the first `sampleSize` of them in creation order. */
  ofType(
    projectId: string,
    typeId: string,
    sampleSize: number,
  ): Promise<{ count: number; sample: ContentItemRecord[] }>;
  /** The distinct collections the project's items are in. */
  collectionIds(projectId: string): Promise<string[]>;
  /** Codenames of the project's items that start with `prefix`. */
  codenamesStartingWith(projectId: string, prefix: string): Promise<string[]>;
  /**
   * A taken codename, external id or id throws `CONFLICT` (also when a concurrent transaction took
   * it: the insert waits for that one's commit).
   */
  insert(record: ContentItemRecord): Promise<void>;
  /** A codename taken by another item throws `CONFLICT`, as `insert`. */
  update(record: ContentItemRecord): Promise<void>;
  /** Removes the item and all its variants; true when it existed. */
  delete(projectId: string, id: string): Promise<boolean>;
}

/** Language variants (SPEC 2.3), latest and published versions together. */
export interface VariantRepository {
  /** One variant; `isForUpdate` locks its row until commit. */
  find(
    projectId: string,
    itemId: string,
    languageId: string,
    options?: { isForUpdate?: boolean },
  ): Promise<VariantRecord | null>;
  /**
   * One variant, its row locked until commit, with the metadata of its latest version read in the
   * same statement (`history.latest`; null: none). The caller must hold the item's row lock (every
   * writer of versions does), so no version can be added between this read and its own. An absent
   * variant may have versions too (deleted, then created again).
   */
  findForWrite(
    projectId: string,
    itemId: string,
    languageId: string,
  ): Promise<{ variant: VariantRecord | null; latestVersion: StoredVersion | null }>;
  /** Variants of an item, in creation order. */
  listByItem(projectId: string, itemId: string): Promise<VariantRecord[]>;
  /** Variants of any of the items, in creation order. */
  listByItems(projectId: string, itemIds: readonly string[]): Promise<VariantRecord[]>;
  /** The variants in `languageId` of any of the items (any order). */
  findManyInLanguage(projectId: string, languageId: string, itemIds: readonly string[]): Promise<VariantRecord[]>;
  /** A page of the variants of items of a content type, in creation order (keyset paging, see KeyedPage). */
  pageByType(projectId: string, typeId: string, request: PageRequest): Promise<KeyedPage<VariantRecord>>;
  /**
   * A page of the variants (of any type) whose latest version holds, at any depth of rich text, a
   * component of the content type, in creation order (keyset paging, see KeyedPage).
   */
  pageWithComponentsOfType(projectId: string, typeId: string, request: PageRequest): Promise<KeyedPage<VariantRecord>>;
  /**
   * A page of the variants of items in any of the collections: those of the first collection in
   * creation order, then those of the second, and so on (keyset paging, see KeyedPage).
   */
  pageByCollections(
    projectId: string,
    collectionIds: readonly string[],
    request: PageRequest,
  ): Promise<KeyedPage<VariantRecord>>;
  /**
   * A page of the item ids matching the inventory query, in its order, after `after` (keyset
   * paging: an index seek to the key, never a skip over the rows before; see KeyedPage).
   */
  filterPage(
    projectId: string,
    query: VariantQuery,
    request: { readonly after: VariantQueryKey | null; readonly limit: number },
  ): Promise<VariantQueryPage>;
  /** How many variants sit in the workflow (in any of `stepIds`, when given). */
  countInWorkflow(projectId: string, workflowId: string, stepIds?: readonly string[]): Promise<number>;
  /** Inserts or replaces the variant. */
  save(record: VariantRecord): Promise<void>;
  /** Removes the variant; true when it existed. */
  delete(projectId: string, itemId: string, languageId: string): Promise<boolean>;
}

/** Scheduled publish and unpublish jobs. */
export interface ScheduledJobRepository {
  insert(job: ScheduledJob): Promise<void>;
  /** Removes the variant's pending jobs (of one action, when given); jobs being run are left alone. */
  cancel(options: {
    projectId: string;
    itemId: string;
    languageId: string;
    action?: ScheduledJob['action'];
  }): Promise<void>;
  /** The earliest job due at `now`, locked until commit (skipping jobs other runners hold), or null. */
  claimDue(now: Date): Promise<ScheduledJob | null>;
  delete(id: string): Promise<void>;
}
