import type { ColumnType, Generated, JSONColumnType } from 'kysely';

/** int8 columns: PostgreSQL's `pg` driver returns strings, PGlite numbers; read them with Number(). */
type Int8 = ColumnType<string | number, number, number>;

export interface ProjectsTable {
  id: string;
  name: string;
  environment: string;
  is_secure_access: boolean;
  is_production: boolean;
  created_at: Date;
}

export interface UsersTable {
  id: string;
  email: string;
  name: string;
  created_at: Date;
}

export interface ApiKeysTable {
  id: string;
  project_id: string;
  kind: string;
  owner_user_id: string | null;
  secret_hash: string;
  created_at: Date;
  expires_at: Date | null;
  revoked_at: Date | null;
}

export interface ProjectSequencesTable {
  project_id: string;
  last_seq: Int8;
}

export interface OutboxRelayTable {
  project_id: string;
  relayed_seq: Int8;
  lease_owner: string | null;
  lease_expires_at: Date | null;
}

export interface OutboxEventsTable {
  project_id: string;
  seq: Int8;
  object_kind: string;
  operation: string;
  object_id: string | null;
  channel: string;
  payload: JSONColumnType<Record<string, unknown>, string, string>;
  occurred_at: Date;
}

/** Events of a transaction waiting for its commit to number them (migration 0027). */
export interface OutboxPendingTable {
  id: Generated<Int8>;
  project_id: string;
  events: JSONColumnType<Record<string, unknown>[], string, string>;
  occurred_at: Date;
}

export interface ModelObjectsTable {
  project_id: string;
  kind: string;
  id: string;
  codename: string;
  external_id: string | null;
  position: ColumnType<string | number, never, never>;
  body: JSONColumnType<Record<string, unknown>, string, string>;
  last_modified: Date;
}

/** Migration 0025: a new value at every commit that wrote the project's model_objects. */
export interface ModelVersionsTable {
  project_id: string;
  version: Int8;
}

export interface RateLimitHitsTable {
  key_id: string;
  window_ms: Int8;
  window_start: Int8;
  hits: number;
}

export interface BinaryFilesTable {
  project_id: string;
  id: string;
  file_name: string;
  content_type: string;
  size: Int8;
  image_width: number | null;
  image_height: number | null;
  blob_key: string;
  created_at: Date;
}

export interface AssetsTable {
  project_id: string;
  id: string;
  codename: string;
  external_id: string | null;
  file_id: string;
  title: string | null;
  folder_id: string | null;
  collection_id: string | null;
  descriptions: JSONColumnType<Record<string, string>, string, string>;
  elements: JSONColumnType<{ element: { id: string }; value: { id: string }[] }[], string, string>;
  position: ColumnType<string | number, never, never>;
  last_modified: Date;
}

export interface AssetFolderTreesTable {
  project_id: string;
  folders: JSONColumnType<StoredAssetFolder[], string, string>;
  last_modified: Date;
}

/** A folder as stored in `asset_folder_trees.folders`. */
export interface StoredAssetFolder {
  id: string;
  name: string;
  codename: string;
  external_id: string | null;
  folders: StoredAssetFolder[];
}

export interface ContentItemsTable {
  project_id: string;
  id: string;
  name: string;
  codename: string;
  external_id: string | null;
  type_id: string;
  collection_id: string;
  sitemap_locations: JSONColumnType<{ id: string }[], string, string>;
  position: ColumnType<string | number, never, never>;
  last_modified: Date;
}

export interface ContentVariantsTable {
  project_id: string;
  item_id: string;
  language_id: string;
  type_id: string;
  workflow_id: string;
  step_id: string;
  position: ColumnType<string | number, never, never>;
  last_modified: Date;
  body: JSONColumnType<Record<string, unknown>, string, string>;
  published: JSONColumnType<Record<string, unknown> | null, string | null, string | null>;
}

/** Migration 0019: versions of language variants. */
export interface VariantVersionsTable {
  project_id: string;
  item_id: string;
  language_id: string;
  seq: number;
  id: string;
  base_seq: number;
  is_snapshot: boolean;
  created_at: Date;
  user_id: string | null;
  via: string;
  operation: string;
  workflow_id: string;
  step_id: string;
  is_published: boolean;
  published_version_id: string | null;
  changed_elements: JSONColumnType<string[], string, string>;
  elements: JSONColumnType<Record<string, unknown>, string, string>;
  meta: JSONColumnType<Record<string, unknown>, string, string>;
  restored_from: string | null;
}

export interface ScheduledJobsTable {
  id: string;
  project_id: string;
  item_id: string;
  language_id: string;
  action: string;
  due_at: Date;
}

export interface WebhooksTable {
  project_id: string;
  id: string;
  format: string;
  name: string;
  url: string;
  secret: string;
  headers: JSONColumnType<{ key: string; value: string }[], string, string>;
  triggers: JSONColumnType<Record<string, unknown>, string, string>;
  is_enabled: boolean;
  created_at: Date;
  last_modified: Date;
  from_seq: Int8;
  reset_requested_at: Date | null;
  health: string;
  failing_since: Date | null;
  last_accepted_at: Date | null;
  reset_handled_at: Date | null;
  failure_mailed_at: Date | null;
  lease_owner: string | null;
  lease_expires_at: Date | null;
  position: ColumnType<string | number, never, never>;
}

export interface WebhookNotificationsTable {
  id: string;
  project_id: string;
  webhook_id: string;
  event_seq: Int8;
  kind: string;
  ord: ColumnType<string | number, never, never>;
  body: JSONColumnType<Record<string, unknown>, string, string>;
  created_at: Date;
  state: string;
  attempts: ColumnType<number, number | undefined, number>;
  has_failed: ColumnType<boolean, boolean | undefined, boolean>;
  first_attempt_at: Date | null;
  next_attempt_at: Date;
  last_attempt_at: Date | null;
  last_status: number | null;
  last_response: string | null;
}

export interface WebhookAttemptsTable {
  notification_id: string;
  at: Date;
  status: number | null;
  is_accepted: boolean;
  duration_ms: number;
  response: string | null;
}

export interface KeyExpiryNoticesTable {
  key_id: string;
  sent_at: Date;
}

export interface WebhookProgressTable {
  project_id: string;
  seq: Int8;
}

export interface BackgroundTasksTable {
  id: string;
  project_id: string;
  kind: string;
  input: JSONColumnType<Record<string, unknown>, string, string>;
  state: JSONColumnType<Record<string, unknown>, string | undefined, string>;
  status: string;
  progress_done: ColumnType<number, number | undefined, number>;
  progress_total: ColumnType<number, number | undefined, number>;
  attempts: ColumnType<number, number | undefined, number>;
  lease_owner: string | null;
  lease_until: Date | null;
  error: string | null;
  created_at: Date;
  updated_at: Date;
}

export interface ImageCacheEntriesTable {
  project_id: string;
  cache_key: string;
  file_id: string;
  content_type: string;
  bytes: Int8;
  last_used_at: Date;
}

export interface PendingUploadsTable {
  blob_key: string;
  project_id: string;
  started_at: Date;
}

export interface PersonPasswordsTable {
  user_id: string;
  hash: string;
  updated_at: Date;
}

export interface PersonLinksTable {
  token_hash: string;
  user_id: string;
  project_id: string | null;
  purpose: string;
  created_at: Date;
  expires_at: Date;
  used_at: Date | null;
}

export interface PersonSessionsTable {
  id_hash: string;
  user_id: string;
  csrf_token: string;
  created_at: Date;
  last_used_at: Date;
}

export interface CommentThreadsTable {
  position: ColumnType<string | number, never, never>;
  project_id: string;
  id: string;
  item_id: string;
  language_id: string;
  element_id: string;
  /** `TextAnchor` as JSON; null: on the whole element. */
  anchor: JSONColumnType<
    { quote: string; prefix: string; suffix: string; start: number } | null,
    string | null,
    string | null
  >;
  created_by: string;
  created_at: Date;
  resolved_at: Date | null;
  resolved_by: string | null;
}

export interface CommentsTable {
  position: ColumnType<string | number, never, never>;
  project_id: string;
  id: string;
  thread_id: string;
  author_id: string;
  text: string;
  mentions: JSONColumnType<string[], string, string>;
  created_at: Date;
  last_modified: Date;
}

export interface PresenceTable {
  user_id: string;
  client_id: string;
  project_id: string;
  item_id: string;
  language_id: string;
  element: string | null;
  seen_at: Date;
}

export interface VariantLastSavesTable {
  project_id: string;
  item_id: string;
  language_id: string;
  user_id: string;
  saved_at: Date;
}

export interface AuditLogTable {
  id: ColumnType<string | number, never, never>;
  project_id: string | null;
  occurred_at: Date;
  actor_type: string;
  actor_user_id: string | null;
  actor_key_id: string | null;
  via: string;
  request_id: string | null;
  action: string;
  object_kind: string;
  object_id: string | null;
  object_codename: string | null;
  language_id: string | null;
  language_codename: string | null;
  summary: JSONColumnType<Record<string, unknown>, string, never>;
}

export interface Database {
  projects: ProjectsTable;
  users: UsersTable;
  api_keys: ApiKeysTable;
  project_sequences: ProjectSequencesTable;
  outbox_events: OutboxEventsTable;
  outbox_pending: OutboxPendingTable;
  outbox_relay: OutboxRelayTable;
  model_objects: ModelObjectsTable;
  model_versions: ModelVersionsTable;
  rate_limit_hits: RateLimitHitsTable;
  content_items: ContentItemsTable;
  content_variants: ContentVariantsTable;
  scheduled_jobs: ScheduledJobsTable;
  variant_versions: VariantVersionsTable;
  binary_files: BinaryFilesTable;
  assets: AssetsTable;
  asset_folder_trees: AssetFolderTreesTable;
  webhooks: WebhooksTable;
  webhook_notifications: WebhookNotificationsTable;
  webhook_attempts: WebhookAttemptsTable;
  webhook_progress: WebhookProgressTable;
  key_expiry_notices: KeyExpiryNoticesTable;
  background_tasks: BackgroundTasksTable;
  image_cache_entries: ImageCacheEntriesTable;
  pending_uploads: PendingUploadsTable;
  person_passwords: PersonPasswordsTable;
  person_links: PersonLinksTable;
  person_sessions: PersonSessionsTable;
  comment_threads: CommentThreadsTable;
  comments: CommentsTable;
  presence: PresenceTable;
  variant_last_saves: VariantLastSavesTable;
  audit_log: AuditLogTable;
}
