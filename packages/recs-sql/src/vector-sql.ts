import { sql, type Kysely, type RawBuilder } from 'kysely';

type Sql = RawBuilder<unknown>;

/**
 * How embeddings are stored (migration 0011): a pgvector `vector` where the extension was
 * installed, else `real[]` compared by the `lectern_cosine_distance` SQL function.
 */
export interface VectorSql {
  readonly isPgvector: boolean;
  /** A parameter holding the vector, cast to the column type. */
  literal(vector: readonly number[]): Sql;
  /** Cosine distance (0 same direction … 2 opposite) of column `r.embedding` to the vector. */
  distance(vector: readonly number[]): Sql;
  /**
   * Nearest neighbours of the vector in `r.embedding`: a WHERE condition and an ORDER BY term that
   * pgvector answers from its HNSW index (512 dimensions), or an exact scan otherwise.
   */
  nearest(vector: readonly number[]): { readonly condition: Sql; readonly order: Sql };
  /** Settings for an index search returning up to `k` rows, inside a transaction. */
  prepare(trx: Kysely<unknown>, k: number): Promise<void>;
}

/** The dimensions the migration built an HNSW index for. */
const indexedDimensions = 512;

export async function detectVectorSql(db: Kysely<unknown>): Promise<VectorSql> {
  const found = await sql<{ n: number }>`select 1 as n from pg_extension where extname = 'vector'`.execute(db);
  if (found.rows.length === 0) {
    const literal = (v: readonly number[]) => sql`${`{${v.join(',')}}`}::real[]`;
    return {
      isPgvector: false,
      literal,
      distance: (v) => sql`lectern_cosine_distance(r.embedding, ${literal(v)})`,
      nearest: (v) => ({ condition: sql`true`, order: sql`lectern_cosine_distance(r.embedding, ${literal(v)})` }),
      prepare: () => Promise.resolve(),
    };
  }
  const literal = (v: readonly number[]) => sql`${`[${v.join(',')}]`}::vector`;
  return {
    isPgvector: true,
    literal,
    distance: (v) => sql`(r.embedding <=> ${literal(v)})`,
    nearest(v) {
      if (v.length !== indexedDimensions) return { condition: sql`true`, order: sql`(r.embedding <=> ${literal(v)})` };
      const dims = sql.lit(indexedDimensions);
      return {
        condition: sql`vector_dims(r.embedding) = ${dims}`,
        order: sql`(r.embedding::vector(${dims}) <=> ${`[${v.join(',')}]`}::vector(${dims}))`,
      };
    },
    async prepare(trx, k) {
      // Iterative scans keep reading the index until `k` rows pass the filter (pgvector 0.8).
      const efSearch = String(Math.max(40, Math.min(1000, k)));
      await sql`select set_config('hnsw.iterative_scan', 'relaxed_order', true),
                       set_config('hnsw.ef_search', ${efSearch}, true)`.execute(trx);
    },
  };
}
