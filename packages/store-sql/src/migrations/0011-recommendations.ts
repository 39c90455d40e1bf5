import { sql, type Kysely } from 'kysely';

/**
 * Smart Recommendations (issue 16). The recommendation index holds one entry per published item
 * and language (SPEC 2.9) with an embedding of its text; visits feed popularity; visitors keep
 * what the client told (referer, location, custom properties), never the IP (SPEC 4.5 rule 5).
 *
 * The embedding column is a pgvector `vector` where the extension is available (PGlite loads it;
 * PostgreSQL needs the pgvector package), otherwise `real[]`, searched by the same exact cosine
 * distance through a SQL function. Untyped dimensions: the embedding provider decides them, and
 * `embedder` names it so vectors of different providers are never compared.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const available = await sql<{ name: string }>`select name from pg_available_extensions where name = 'vector'`.execute(
    db,
  );
  const hasVector = available.rows.length > 0;
  if (hasVector) await sql`create extension if not exists vector`.execute(db);
  else
    await sql`
      create function lectern_cosine_distance(a real[], b real[]) returns double precision
      language sql immutable parallel safe as $$
        select case when na = 0 or nb = 0 then 1 else 1 - dot / (sqrt(na) * sqrt(nb)) end
        from (select sum(x * y) as dot, sum(x * x) as na, sum(y * y) as nb
              from unnest(a, b) as t(x, y)) s
      $$`.execute(db);
  const embeddingType = hasVector ? sql`vector` : sql`real[]`;
  await sql`
    create table recs_items (
      project_id uuid not null,
      item_id uuid not null,
      language text not null,
      codename text not null,
      name text not null,
      type text not null,
      lastupdated bigint not null,
      properties text[] not null,
      search_text text not null,
      search_vector tsvector generated always as (to_tsvector('simple', search_text)) stored,
      terms text[] not null,
      embedder text not null,
      embedding ${embeddingType} not null,
      primary key (project_id, item_id, language)
    )`.execute(db);
  await sql`create index recs_items_codename on recs_items (project_id, codename)`.execute(db);
  await sql`create index recs_items_recent on recs_items (project_id, type, lastupdated desc)`.execute(db);
  await sql`create index recs_items_properties on recs_items using gin (properties)`.execute(db);
  await sql`create index recs_items_text on recs_items using gin (search_vector)`.execute(db);
  // Approximate nearest neighbours (HNSW) for the default provider's 512 dimensions; vectors of
  // other sizes are searched exactly.
  if (hasVector)
    await sql`
      create index recs_items_embedding_512 on recs_items
      using hnsw ((embedding::vector(512)) vector_cosine_ops) where vector_dims(embedding) = 512`.execute(db);
  // full_documents: the entry count at the last re-render of every item (IDF drift check).
  await sql`
    create table recs_watermarks (
      project_id uuid primary key,
      seq bigint not null,
      full_documents bigint not null default 0
    )`.execute(db);
  // Document frequency of each term among a project's entries (IDF of the default embedder).
  await sql`
    create table recs_terms (
      project_id uuid not null,
      term text not null,
      df integer not null,
      primary key (project_id, term)
    )`.execute(db);
  // Popularity with exponential time decay, kept per item: score as of `updated_at`.
  await sql`
    create table recs_popularity (
      project_id uuid not null,
      codename text not null,
      score double precision not null,
      updated_at timestamptz not null,
      primary key (project_id, codename)
    )`.execute(db);
  await sql`
    create table recs_visits (
      project_id uuid not null,
      visit_id text not null,
      codename text not null,
      kind text not null check (kind in ('visit', 'conversion', 'portion')),
      portion real,
      at timestamptz not null
    )`.execute(db);
  await sql`create index recs_visits_visit on recs_visits (project_id, visit_id, at)`.execute(db);
  await sql`
    create table recs_visitors (
      project_id uuid not null,
      visit_id text not null,
      referer text,
      location jsonb,
      custom jsonb,
      first_seen timestamptz not null,
      last_seen timestamptz not null,
      primary key (project_id, visit_id)
    )`.execute(db);
  await sql`
    create table recs_settings (
      project_id uuid primary key,
      is_manual_tracking boolean not null
    )`.execute(db);
}
