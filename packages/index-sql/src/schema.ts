import type { Generated } from 'kysely';

/** Rows of the delivery index tables (migrations 0005, 0006 and 0008 of @lectern/store-sql). */
export interface IndexDatabase {
  delivery_documents: {
    /** Assigned by the database (identity). */
    doc_id: Generated<string>;
    project_id: string;
    channel: string;
    item_id: string;
    language: string;
    codename: string;
    name: string;
    type: string;
    collection: string;
    last_modified: string;
    /** The IndexedVariant as JSON text. */
    body: string;
    hash: string;
  };
  delivery_values: {
    doc_id: string | number | bigint;
    property: string;
    project_id: string;
    channel: string;
    kind: string;
    num: number | null;
    txt: string | null;
  };
  delivery_members: {
    doc_id: string | number | bigint;
    property: string;
    member: string;
    project_id: string;
    channel: string;
  };
  delivery_links: {
    doc_id: string | number | bigint;
    kind: string;
    target: string;
    project_id: string;
    channel: string;
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
