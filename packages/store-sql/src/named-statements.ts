import type { PGlite, Transaction } from '@electric-sql/pglite';
import { parse, protocol } from '@electric-sql/pglite';
import type pg from 'pg';

/**
 * An unnamed statement is parsed, analysed and planned by PostgreSQL on every execution; a named
 * (prepared) one once per connection. Measured on the write path (issue 35, 8 statements a variant
 * upsert): on PostgreSQL about a third less database CPU per upsert, nearly half per item upsert;
 * on PGlite an update statement ran in 0.18 ms instead of 0.50.
 *
 * A parameterised text seen `after` times gets a name, until `maxNamed` texts are named (each
 * named text is a plan kept in every connection's server process: the cap bounds that memory;
 * texts that vary, such as an `in` list of n values, mostly stay below `after` or beyond the cap).
 *
 * A plan prepared before a schema change that alters its result's columns (a migration by a newer
 * server during a rolling upgrade) fails with "cached plan must not change result type": the
 * failure makes every name forgotten, so each text is prepared afresh under a new one, and the
 * store retries the transaction or read that met it (a statement sent outside the store's
 * transactions, such as an index read on its pool, fails that once).
 */
export interface StatementNames {
  /** The text's name, or undefined while it stays unnamed. */
  nameOf(text: string): string | undefined;
  /** Drops every name: each text is prepared again under a new one. */
  forget(): void;
}

/** Whether `error` is PostgreSQL refusing a prepared plan whose result type a schema change altered. */
export function isStalePlan(error: unknown): boolean {
  const e = error as { code?: string; message?: string } | null;
  return e?.code === '0A000' && /cached plan must not change result type/.test(e.message ?? '');
}

export function createStatementNames(
  options: { after?: number; maxNamed?: number; maxCounted?: number } = {},
): StatementNames {
  const after = options.after ?? 3;
  const maxNamed = options.maxNamed ?? 200;
  const maxCounted = options.maxCounted ?? 5_000;
  const seen = new Map<string, number>();
  let names = new Map<string, string>();
  let generation = 0;
  return {
    nameOf(text) {
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
    },
    forget() {
      generation += 1;
      names = new Map();
      seen.clear();
    },
  };
}

type Query = (...args: unknown[]) => unknown;

/** Resolves as `answer` does; a stale plan among its failures makes every name forgotten. */
function forgettingStalePlans<T>(answer: T, names: StatementNames): T {
  if (answer instanceof Promise)
    answer.catch((error: unknown) => {
      if (isStalePlan(error)) names.forget();
    });
  return answer;
}

/** node-postgres prepares a name on a connection the first time that connection runs it. */
export function nameStatementsOfPool(pool: pg.Pool, names: StatementNames): void {
  pool.on('connect', (client) => {
    const query = client.query.bind(client) as Query;
    (client as unknown as { query: Query }).query = (text: unknown, values?: unknown, callback?: unknown) => {
      const name = typeof text === 'string' && Array.isArray(values) ? names.nameOf(text) : undefined;
      if (name === undefined) return query(text, values, callback);
      return forgettingStalePlans(query({ name, text, values }, callback), names);
    };
  });
}

/** The part of a PGlite instance Kysely's PGlite dialect uses. */
export type PgliteForKysely = Pick<PGlite, 'query' | 'transaction' | 'close' | 'closed' | 'ready' | 'waitReady'>;

/**
 * `pglite` as Kysely's dialect uses it, with named statements: PGlite's own `query` parses every
 * statement anew (and sends five protocol messages); a named one is parsed and described once,
 * then bound and executed. The rest is what PGlite's `query` does: one query at a time, the
 * parameters serialised by their described types, the answer parsed by PGlite's parsers.
 */
export function namePgliteStatements(pglite: PGlite, names: StatementNames): PgliteForKysely {
  const { serialize } = protocol;
  const paramTypes = new Map<string, number[]>();
  const send = async (message: Uint8Array) => (await pglite.execProtocol(message, { syncToFs: false })).messages;

  const run = (name: string, text: string, params: readonly unknown[], options: object | undefined) =>
    pglite._runExclusiveQuery(async () => {
      const messages = [];
      try {
        let types = paramTypes.get(name);
        if (types === undefined) {
          await send(serialize.parse({ name, text }));
          types = parse.parseDescribeStatementResults(await send(serialize.describe({ type: 'S', name })));
          paramTypes.set(name, types);
        }
        const values = params.map((value, i) => {
          if (value === null || value === undefined) return null;
          const serializer = pglite.serializers[types[i] ?? 0];
          return serializer ? serializer(value) : String(value);
        });
        messages.push(...(await send(serialize.bind({ statement: name, values }))));
        messages.push(...(await send(serialize.describe({ type: 'P' }))));
        messages.push(...(await send(serialize.execute({}))));
      } finally {
        messages.push(...(await send(serialize.sync())));
      }
      if (!pglite.isInTransaction()) await pglite.syncToFs();
      return parse.parseResults(messages, pglite.parsers, options)[0]!;
    });

  const queryVia =
    (direct: PGlite['query'], exclusive: <T>(work: () => Promise<T>) => Promise<T>): PGlite['query'] =>
    (text, params, options) => {
      const name = Array.isArray(params) ? names.nameOf(text) : undefined;
      if (name === undefined) return direct(text, params, options);
      return forgettingStalePlans(
        exclusive(() => run(name, text, params ?? [], options)),
        names,
      ) as never;
    };
  const none = <T>(work: () => Promise<T>) => work();

  return {
    get closed() {
      return pglite.closed;
    },
    get ready() {
      return pglite.ready;
    },
    get waitReady() {
      return pglite.waitReady;
    },
    close: () => pglite.close(),
    // Outside a transaction PGlite's query waits for any transaction under way; inside, it runs.
    query: queryVia(pglite.query.bind(pglite), (work) => pglite._runExclusiveTransaction(work)),
    transaction: (work) =>
      pglite.transaction((tx) => {
        const named: Transaction = Object.create(tx, {
          query: { value: queryVia(tx.query.bind(tx), none) },
        }) as Transaction;
        return work(named);
      }),
  };
}
