import type pg from 'pg';

/**
 * An unnamed statement is parsed, analysed and planned by PostgreSQL on every execution; a named
 * (prepared) one once per connection. Measured on the write path (issue 35, 8 statements a variant
 * upsert): about a third less PostgreSQL CPU per upsert, nearly half per item upsert.
 *
 * This names the statements a pool runs often: a parameterised text seen `after` times gets a
 * name, until `maxNamed` texts are named (each named text is a plan kept in every connection's
 * server process: the cap bounds that memory; texts that vary, such as an `in` list of n values,
 * mostly stay below `after` or beyond the cap). node-postgres prepares a name on a connection the
 * first time that connection runs it.
 *
 * A plan prepared before a schema change that alters its result's columns (a migration by a newer
 * server during a rolling upgrade) fails with "cached plan must not change result type": the store
 * then calls `forget` and retries, and every text gets a new name, prepared afresh.
 */
export interface NamedStatements {
  /** Drops every name: each text is prepared again under a new one. */
  forget(): void;
}

/** Whether `error` is PostgreSQL refusing a prepared plan whose result type a schema change altered. */
export function isStalePlan(error: unknown): boolean {
  const e = error as { code?: string; message?: string } | null;
  return e?.code === '0A000' && /cached plan must not change result type/.test(e.message ?? '');
}

type Query = (...args: unknown[]) => unknown;

export function nameFrequentStatements(
  pool: pg.Pool,
  options: { after?: number; maxNamed?: number; maxCounted?: number } = {},
): NamedStatements {
  const after = options.after ?? 3;
  const maxNamed = options.maxNamed ?? 200;
  const maxCounted = options.maxCounted ?? 5_000;
  const seen = new Map<string, number>();
  let names = new Map<string, string>();
  let generation = 0;

  const nameOf = (text: string): string | undefined => {
    const name = names.get(text);
    if (name !== undefined || names.size >= maxNamed) return name;
    const count = (seen.get(text) ?? 0) + 1;
    if (count < after) {
      if (seen.size >= maxCounted) seen.clear();
      seen.set(text, count);
      return undefined;
    }
    seen.delete(text);
    const named = `lectern_${generation}_${names.size}`;
    names.set(text, named);
    return named;
  };

  pool.on('connect', (client) => {
    const query = client.query.bind(client) as Query;
    (client as unknown as { query: Query }).query = (text: unknown, values?: unknown, callback?: unknown) => {
      const name = typeof text === 'string' && Array.isArray(values) ? nameOf(text) : undefined;
      return name === undefined ? query(text, values, callback) : query({ name, text, values }, callback);
    };
  });

  return {
    forget() {
      generation += 1;
      names = new Map();
      seen.clear();
    },
  };
}
