import { CompiledQuery, type Kysely } from 'kysely';
import type { Database } from './schema.ts';

/**
 * Statements of the write path sent on every upsert, as SQL text built once (issue 35): Kysely's
 * query builder costs about a tenth of the Management server's CPU per upsert, for statements
 * whose shape never changes. `insertRow` is the text of an INSERT of `columns` ($1…$n in order);
 * `run` sends text and parameters as they are (the statement log still sees them).
 */
export function insertRow(table: string, columns: readonly string[], suffix = ''): string {
  const names = columns.map((c) => `"${c}"`).join(', ');
  const params = columns.map((_, i) => `$${i + 1}`).join(', ');
  return `insert into "${table}" (${names}) values (${params})${suffix === '' ? '' : ` ${suffix}`}`;
}

/** Runs `text` with `parameters` on `db` (a transaction or the pool), answering its rows. */
export async function run<R>(db: Kysely<Database>, text: string, parameters: readonly unknown[]): Promise<R[]> {
  return (await db.executeQuery<R>(CompiledQuery.raw(text, [...parameters]))).rows;
}
