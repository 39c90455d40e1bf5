import { sql, type Kysely } from 'kysely';

/**
 * The inventory query (`POST /items-with-variant/filter`, issue 28) runs in SQL and pages by key
 * (see variant-filter-query.ts). What it needs:
 *
 * - `content_variant_facets`, one narrow row per variant kept by a trigger from its body in the
 *   same transaction as every variant write (no write path has to keep it): `search_text`, the
 *   lower-cased text of its string element values (text, rich text with its tags dropped, URL
 *   slug, custom; date-time values, ISO strings, left out so a search for "2024" does not match
 *   every dated item), matched with the item's name against the search phrase; and
 *   `filled_elements`, the ids of the elements that hold a value, with the type and step, for
 *   the completion filter.
 *   Narrow, so scanning it or fetching many rows through its trigram index reads a fraction of
 *   the pages the variant rows (their bodies) would cost.
 * - trigram indexes on `lower(name)` and `search_text` (pg_trgm: PGlite loads it, PostgreSQL's
 *   contrib ships it; where it is missing the search still works, by scan), so a rare phrase is
 *   found without reading every row.
 * - keyset indexes for each order: items by type, by collection, by lower(name); variants of a
 *   language by last change and by due date (ties broken by `position`), and by workflow step.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create function lectern_variant_search_text(body jsonb) returns text
    language sql immutable parallel safe as $$
      select coalesce(string_agg(lower(regexp_replace(e.value->>'value', '<[^>]*>', ' ', 'g')), ' '), '')
      from jsonb_each(coalesce(body->'elements', '{}'::jsonb)) e
      where jsonb_typeof(e.value->'value') = 'string'
        and (e.value->>'value') !~ '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}'
    $$`.execute(db);
  // Elements holding a value (checkPublishable's emptiness, read without the type: a blank
  // string, an empty array, null and an empty rich text paragraph are empty), so "is every
  // required element filled" is one array containment per row instead of a walk of the body.
  await sql`
    create function lectern_variant_filled(body jsonb) returns text[]
    language sql immutable parallel safe as $$
      select coalesce(array_agg(e.key order by e.key), '{}')
      from jsonb_each(coalesce(body->'elements', '{}'::jsonb)) e
      where case jsonb_typeof(e.value->'value')
        when 'array' then jsonb_array_length(e.value->'value') > 0
        when 'string' then regexp_replace(e.value->>'value', '\\s', '', 'g') not in ('', '<p><br/></p>')
        when 'null' then false
        else e.value->'value' is not null end
    $$`.execute(db);
  await sql`
    create table content_variant_facets (
      project_id uuid not null,
      item_id uuid not null,
      language_id uuid not null,
      type_id uuid not null,
      step_id uuid not null,
      search_text text not null,
      filled_elements text[] not null,
      primary key (project_id, item_id, language_id),
      foreign key (project_id, item_id, language_id)
        references content_variants (project_id, item_id, language_id) on delete cascade
    )`.execute(db);
  await sql`
    create function lectern_variant_facets() returns trigger language plpgsql as $$
    begin
      insert into content_variant_facets
        (project_id, item_id, language_id, type_id, step_id, search_text, filled_elements)
      values (new.project_id, new.item_id, new.language_id, new.type_id, new.step_id,
        lectern_variant_search_text(new.body), lectern_variant_filled(new.body))
      on conflict (project_id, item_id, language_id) do update
        set type_id = excluded.type_id, step_id = excluded.step_id,
          search_text = excluded.search_text, filled_elements = excluded.filled_elements;
      return null;
    end
    $$`.execute(db);
  await sql`create trigger content_variant_facets_kept after insert or update on content_variants
    for each row execute function lectern_variant_facets()`.execute(db);
  await sql`insert into content_variant_facets
    select project_id, item_id, language_id, type_id, step_id,
      lectern_variant_search_text(body), lectern_variant_filled(body)
    from content_variants`.execute(db);

  await sql`create index content_items_type_position on content_items (project_id, type_id, position)`.execute(db);
  await sql`create index content_items_collection_position on content_items (project_id, collection_id, position)`.execute(
    db,
  );
  await sql`create index content_items_name_order on content_items (project_id, lower(name), position)`.execute(db);
  await sql`create index content_variants_language_modified
    on content_variants (project_id, language_id, last_modified, position)`.execute(db);
  await sql`create index content_variants_language_due
    on content_variants (project_id, language_id, (coalesce(body->>'due_date', '')), position)`.execute(db);
  await sql`create index content_variants_language_step
    on content_variants (project_id, language_id, workflow_id, step_id)`.execute(db);

  const available = await sql<{
    name: string;
  }>`select name from pg_available_extensions where name = 'pg_trgm'`.execute(db);
  if (available.rows.length === 0) return;
  await sql`create extension if not exists pg_trgm`.execute(db);
  await sql`create index content_items_name_trgm on content_items using gin (lower(name) gin_trgm_ops)`.execute(db);
  await sql`create index content_variant_facets_search_trgm
    on content_variant_facets using gin (search_text gin_trgm_ops)`.execute(db);
}
