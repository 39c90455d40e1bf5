import { sql, type Kysely, type RawBuilder } from 'kysely';

/**
 * How embeddings are stored (migration 0011): a pgvector `vector` where the extension was
 * installed, else `real[]` compared by the `lectern_cosine_distance` SQL function.
 */
export interface VectorSql {
  readonly isPgvector: boolean;
  /** A parameter holding the vector, cast to the column type. */
  literal(vector: readonly number[]): RawBuilder<unknown>;
  /** Cosine distance (0 same direction … 2 opposite) of two vector expressions. */
  distance(a: RawBuilder<unknown>, b: RawBuilder<unknown>): RawBuilder<unknown>;
}

export async function detectVectorSql(db: Kysely<unknown>): Promise<VectorSql> {
  const found = await sql<{ n: number }>`select 1 as n from pg_extension where extname = 'vector'`.execute(db);
  const isPgvector = found.rows.length > 0;
  return isPgvector
    ? {
        isPgvector,
        literal: (v) => sql`${`[${v.join(',')}]`}::vector`,
        distance: (a, b) => sql`(${a} <=> ${b})`,
      }
    : {
        isPgvector,
        literal: (v) => sql`${`{${v.join(',')}}`}::real[]`,
        distance: (a, b) => sql`lectern_cosine_distance(${a}, ${b})`,
      };
}
