import { sql, type Kysely } from 'kysely';

/**
 * The SQL delivery index answers queries from indexes instead of decoding every document
 * (issue 11): a document row keeps its Delivery JSON as text with the item-level columns, and
 * every other filterable or orderable value lives in `delivery_values` (one typed row per element
 * and per remaining system property), array members in `delivery_members`, and the references a
 * document holds in `delivery_links`. Text columns compare in code point order (collation "C"), as
 * Delivery compares strings.
 *
 * The index is derived data: this migration recreates its tables empty and clears the watermarks,
 * so the indexer renders every project again at its next start.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`drop table delivery_documents`.execute(db);
  for (const table of ['delivery_models', 'delivery_watermarks', 'delivery_changes', 'delivery_model_changes'])
    await sql`delete from ${sql.table(table)}`.execute(db);

  await sql`create table delivery_documents (
    doc_id bigint generated always as identity primary key,
    project_id uuid not null,
    channel text not null,
    item_id uuid not null,
    language text collate "C" not null,
    codename text collate "C" not null,
    name text collate "C" not null,
    type text collate "C" not null,
    collection text collate "C" not null,
    last_modified text collate "C" not null,
    -- The IndexDocument's reader part (IndexedVariant) as JSON text, key order kept.
    body text not null,
    hash text not null,
    unique (project_id, channel, item_id, language)
  )`.execute(db);
  await sql`create index delivery_documents_codename on delivery_documents (project_id, channel, codename, language)`.execute(
    db,
  );
  await sql`create index delivery_documents_type on delivery_documents (project_id, channel, type, codename)`.execute(
    db,
  );
  await sql`create index delivery_documents_modified on delivery_documents (project_id, channel, last_modified)`.execute(
    db,
  );

  // kind: n number (num), s string (txt), a array and o object (txt: their JSON text, for
  // ordering), b boolean, z null. Long strings (rich text) are indexed by their first 200 characters.
  await sql`create table delivery_values (
    doc_id bigint not null,
    property text collate "C" not null,
    project_id uuid not null,
    channel text not null,
    kind "char" not null,
    num double precision,
    txt text collate "C",
    primary key (doc_id, property)
  )`.execute(db);
  // Number and string elements (with their nulls, which order as the greatest value) in order.
  await sql`create index delivery_values_num on delivery_values (project_id, channel, property, num) where kind in ('n', 'z')`.execute(
    db,
  );
  await sql`create index delivery_values_txt on delivery_values (project_id, channel, property, left(txt, 200)) where kind in ('s', 'z')`.execute(
    db,
  );

  // The codenames `contains`/`any`/`all` compare, per array-valued element.
  await sql`create table delivery_members (
    doc_id bigint not null,
    property text collate "C" not null,
    member text collate "C" not null,
    project_id uuid not null,
    channel text not null,
    primary key (doc_id, property, member)
  )`.execute(db);
  await sql`create index delivery_members_member on delivery_members (project_id, channel, property, member)`.execute(
    db,
  );

  // kind: d an item whose change re-renders the document (id), a an asset it shows (id),
  // u an item it references (codename; used-in).
  await sql`create table delivery_links (
    doc_id bigint not null,
    kind "char" not null,
    target text collate "C" not null,
    project_id uuid not null,
    channel text not null,
    primary key (doc_id, kind, target)
  )`.execute(db);
  await sql`create index delivery_links_target on delivery_links (project_id, kind, target)`.execute(db);
}
