/** Rows of the delivery index tables (migrations 0005 and 0006 of @lectern/store-sql). */
export interface IndexDatabase {
  delivery_documents: {
    project_id: string;
    channel: string;
    item_id: string;
    language: string;
    codename: string;
    name: string;
    type: string;
    collection: string;
    last_modified: string;
    body: string;
    doc: string;
    arrays: string;
    depends_on: string;
    asset_ids: string;
    uses_codenames: string;
    hash: string;
  };
  delivery_models: { project_id: string; types: string; taxonomies: string; languages: string };
  delivery_watermarks: { project_id: string; seq: string | number | bigint };
  delivery_changes: {
    project_id: string;
    channel: string;
    item_id: string;
    language: string;
    seq: string | number | bigint;
    change_type: string;
    codename: string;
    type: string;
    collection: string;
    timestamp: string;
    /** Migration 0006: the last document's `system` as JSON text. */
    system: string | null;
  };
  /** Migration 0006. */
  delivery_model_changes: {
    project_id: string;
    channel: string;
    kind: string;
    object_id: string;
    seq: string | number | bigint;
    change_type: string;
    system: string;
    timestamp: string;
  };
}
