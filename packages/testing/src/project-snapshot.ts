import { createHash } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { BlobStore } from '@lectern/core';
import type { Database } from '@lectern/store-sql';

/**
 * A fingerprint of everything a store holds: one digest per table of the schema in use, as the
 * database's own catalogue lists them (so a table added by a later migration is covered without
 * touching this file), plus one entry per blob of the blob store (`blob:<key>` → its size). Two
 * equal snapshots: nothing was stored, changed or removed between them, rows or bytes.
 */
export type StoreSnapshot = Readonly<Record<string, string>>;

/**
 * Tables that serving a read legitimately changes, left out of the default snapshot. Every other
 * table is compared; add a table here only with the reason a request it refuses may still move it.
 */
export const bookkeepingTables: Readonly<Record<string, string>> = {
  // Every request counts against its key's and client's limits, reads and refusals included:
  // that is what a rate limit is.
  rate_limit_hits: 'rate-limit counters move on every request',
};

export interface StoreSnapshotOptions {
  readonly db: Kysely<Database>;
  /** The blob store beside the database; null or absent: rows only. */
  readonly blobs?: Pick<BlobStore, 'list'> | null;
  /** Which blobs count (default: all); a caller leaving some out says why. */
  readonly isBlobCounted?: (key: string) => boolean;
  /** Tables left out (default: `bookkeepingTables`). */
  readonly exclude?: readonly string[];
}

/** The catalogue's list of the schema's tables (ordinary and partitioned), comma-separated. */
const tableList = sql<string>`(select coalesce(string_agg(c.relname, ',' order by c.relname), '')
    from pg_catalog.pg_class c join pg_catalog.pg_namespace n on n.oid = c.relnamespace
    where n.nspname = current_schema() and c.relkind in ('r', 'p') and not c.relispartition)`;

/** Every table of the store's schema, by the catalogue. */
export async function storeTables(db: Kysely<Database>): Promise<string[]> {
  const { rows } = await sql<{ tables: string }>`select ${tableList} as tables`.execute(db);
  return (rows[0]?.tables ?? '').split(',').filter((t) => t !== '');
}

/*
 * One statement fingerprints every table: its row count and the sum of its rows' `xmin` (the
 * transaction that wrote each row version). Any committed insert, update or delete moves one of
 * the two: a row version written after a snapshot carries a newer transaction id than all the
 * versions it replaces (given that no write in flight at the first snapshot commits after it,
 * as when requests are judged one at a time), so equal counts with equal sums mean the same row
 * versions, contents included; a rewrite with equal contents counts as a change. It reads no column (no detoasting, no text), so its cost does not grow with what
 * the rows hold. It also answers the catalogue's current table list: when that differs from the
 * list it was built for (a table was added), it is rebuilt and run again, so no table is ever
 * left out. Planning three dozen subqueries costs more than running them on a test store, so
 * the statement is PREPAREd once per connection (and per table list) and then only EXECUTEd.
 */
function digestSql(tables: readonly string[]) {
  return sql<Record<string, string>>`select ${tableList} as ${sql.ref('$tables')}${sql.join(
    tables.map(
      (table) =>
        sql`, (select count(*)::text || ':' || coalesce(sum(t.xmin::text::bigint), 0)::text from ${sql.table(table)} t) as ${sql.ref(table)}`,
    ),
    sql``,
  )}`;
}

interface Plan {
  readonly list: string;
  readonly name: string;
  readonly text: string;
}
/** Per store, per set of excluded tables: the statement last built. */
const plans = new WeakMap<object, Map<string, Plan>>();
const plansOf = (db: object) => plans.get(db) ?? plans.set(db, new Map()).get(db)!;

/** `connection`: the one the caller holds (a PGlite store has one, so `db` would wait for it). */
async function planFor(
  db: Kysely<Database>,
  connection: Kysely<Database>,
  excluded: ReadonlySet<string>,
  list?: string,
): Promise<Plan> {
  const current = list ?? (await storeTables(connection)).join(',');
  const tables = current.split(',').filter((t) => t !== '' && !excluded.has(t));
  const text = digestSql(tables).compile(db).sql;
  const name = `lectern_snapshot_${createHash('sha1').update(text).digest('hex').slice(0, 16)}`;
  const plan = { list: current, name, text };
  plansOf(db).set([...excluded].sort().join(','), plan);
  return plan;
}

async function digests(db: Kysely<Database>, excluded: ReadonlySet<string>): Promise<Record<string, string>> {
  return db.connection().execute(async (connection) => {
    const run = async (plan: Plan) => {
      try {
        return (await sql<Record<string, string>>`execute ${sql.raw(plan.name)}`.execute(connection)).rows[0];
      } catch (error) {
        // Not prepared on this connection (of a pool) yet: prepare it here, then run it.
        if ((error as { code?: string }).code !== '26000') throw error;
        await sql.raw(`prepare ${plan.name} as ${plan.text}`).execute(connection);
        return (await sql<Record<string, string>>`execute ${sql.raw(plan.name)}`.execute(connection)).rows[0];
      }
    };
    let plan = plansOf(db).get([...excluded].sort().join(',')) ?? (await planFor(db, connection, excluded));
    for (let attempt = 0; attempt < 3; attempt++) {
      const { $tables: list, ...rest } = (await run(plan)) ?? {};
      if (list === plan.list) return rest;
      plan = await planFor(db, connection, excluded, list);
    }
    throw new Error('storeSnapshot: the table list kept changing');
  });
}

export async function storeSnapshot(options: StoreSnapshotOptions): Promise<StoreSnapshot> {
  const excluded = new Set(options.exclude ?? Object.keys(bookkeepingTables));
  const [rows, blobs] = await Promise.all([digests(options.db, excluded), options.blobs ? options.blobs.list('') : []]);
  const snapshot: Record<string, string> = { ...rows };
  for (const blob of blobs)
    if (options.isBlobCounted?.(blob.key) ?? true) snapshot[`blob:${blob.key}`] = String(blob.size);
  return snapshot;
}

/** The tables (and `blob:<key>` entries) that differ between two snapshots (empty: unchanged). */
export function snapshotChanges(before: StoreSnapshot, after: StoreSnapshot): string[] {
  return Object.keys({ ...before, ...after }).filter((name) => before[name] !== after[name]);
}
