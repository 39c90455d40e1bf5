import { sql, type Kysely } from 'kysely';

/**
 * The number of a project's recommendation entries, kept as the document frequency of the empty
 * term (which no word is) in `recs_terms`: the writer counts every entry under it as it counts
 * each entry's words, so a search's IDF weights read the count with the words' frequencies
 * instead of counting the project's entries (linear in its size) on every search.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    insert into recs_terms (project_id, term, df)
    select project_id, '', count(*)::int from recs_items group by project_id
    on conflict (project_id, term) do update set df = excluded.df`.execute(db);
}
