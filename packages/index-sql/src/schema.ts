import type { Generated } from 'kysely';

/**
 * Rows of the delivery index's document tables (migrations 0005 and 0008 of @lectern/store-sql); the
 * ledger tables (watermark, feeds, model) are store-sql's index ledger repository's.
 */
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
}
