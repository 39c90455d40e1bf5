/** Rows of the delivery index ledger tables (migrations 0005 and 0006), whatever holds the documents. */
export interface LedgerDatabase {
  delivery_models: {
    project_id: string;
    types: string;
    taxonomies: string;
    languages: string;
    /** Migration 0018: `TypeLinks` as JSON text (null: written before it). */
    type_links: string | null;
  };
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
