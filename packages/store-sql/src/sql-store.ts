import { Kysely, PGliteDialect, PostgresDialect, sql, type LogConfig } from 'kysely';
import { Migrator } from 'kysely/migration';
import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite-pgvector';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import pg from 'pg';
import { LecternError } from '@lectern/errors';
import {
  createAuditCollector,
  createSerialQueue,
  currentAuditScope,
  type NewChangeEvent,
  type Signals,
  type Store,
  type UnitOfWork,
} from '@lectern/core';
import { migrationProvider } from './migrations/index.ts';
import { pgliteSignals, postgresSignals } from './signals.ts';
import { unitOfWork } from './repositories.ts';
import { appendPendingEvents } from './outbox-repositories.ts';
import { analyzeAsConfigured, analyzeSampled, startAutoAnalyze as startAnalyzer } from './auto-analyze.ts';
import { createStatementNames, isStalePlan, namePgliteStatements, nameStatementsOfPool } from './named-statements.ts';
import type { Database } from './schema.ts';

export interface SqlStore extends Store {
  /** The engine behind it, for logs and test names. */
  readonly engine: 'pglite' | 'postgres';
  /** The query builder, for adapters (index, scheduler) that live beside the store. */
  readonly db: Kysely<Database>;
  /**
   * Calls `listener` after each commit of this process that appended change events (to wake the
   * outbox relay at once instead of at its next poll). Returns the unsubscribe function.
   */
  onEventsCommitted(listener: () => void): () => void;
  /**
   * Signals of commits by any process on this database (`committed` from outbox appends, `access`
   * from key and project changes, `indexed` from the SQL delivery index).
   */
  readonly signals: Signals;
  /**
   * Refreshes the planner's statistics of every table, from samples (auto-analyze.ts). PGlite runs
   * no autovacuum, so a server on it calls this at start and then analyzes what changes.
   */
  analyze(): Promise<void>;
}

const retryableCodes = new Set(['40001', '40P01']); // serialization failure, deadlock
const maxAttempts = 4;

/** Maps driver errors to catalogue errors at the boundary (CONVENTIONS: adapters translate). */
function translate(error: unknown): unknown {
  const e = error as { code?: string; constraint?: string };
  if (e?.code === '23505') {
    return new LecternError(e.constraint === 'api_keys_active_slot' ? 'API_KEY_SLOT_TAKEN' : 'CONFLICT', {
      cause: error,
    });
  }
  // A malformed uuid or similar in a parameter: the caller sent a bad identifier.
  if (e?.code === '22P02') return new LecternError('INVALID_IDENTIFIER', { cause: error });
  if (e?.code !== undefined && retryableCodes.has(e.code)) return new LecternError('CONFLICT', { cause: error });
  return error;
}

/**
 * Wraps a Kysely instance as the Store port. `isSingleConnection` serializes transactions (PGlite
 * has one connection: without this a query of one request would run inside another's
 * transaction).
 */
function wrap(
  db: Kysely<Database>,
  options: {
    engine: SqlStore['engine'];
    isSingleConnection: boolean;
    /** Whether changes are written to the audit log (LECTERN_AUDIT; off only to measure its cost). */
    isAuditOn: boolean;
    signals: Signals & { close?: () => Promise<void> };
  },
): { store: SqlStore; startAutoAnalyze(intervalMs: number): void } {
  const queue = createSerialQueue();
  const serialize = <T>(work: () => Promise<T>): Promise<T> => (options.isSingleConnection ? queue.run(work) : work());
  let autoAnalyze: { stop(): Promise<void> } | null = null;

  const listeners = new Set<() => void>();
  // Shared by every transaction of this store (UnitOfWork.memo): the content model by version.
  const memo = new Map<string, unknown>();

  async function transaction<T>(work: (tx: UnitOfWork) => Promise<T>): Promise<T> {
    const scope = currentAuditScope();
    for (let attempt = 1; ; attempt++) {
      try {
        let hasEvents = false;
        const result = await serialize(() =>
          db.transaction().execute(async (trx) => {
            const audit = createAuditCollector();
            const tx = unitOfWork(trx, audit, memo);
            const append: UnitOfWork['outbox']['append'] = (...args) => {
              hasEvents ||= args[1].length > 0;
              return tx.outbox.append(...args);
            };
            const atCommit: { projectId: string; events: readonly NewChangeEvent[]; occurredAt: Date }[] = [];
            const appendAtCommit: UnitOfWork['outbox']['appendAtCommit'] = (projectId, events, occurredAt) => {
              if (events.length === 0) return;
              hasEvents = true;
              audit.noteEvents(projectId, events, occurredAt);
              atCommit.push({ projectId, events, occurredAt });
            };
            const done = await work({ ...tx, outbox: { ...tx.outbox, append, appendAtCommit } });
            // The one place that sees every change: its audit entry commits with it (issue 31),
            // in the statement of the deferred events when there are some.
            const auditRows = options.isAuditOn ? audit.rows(new Date(), scope) : [];
            if (atCommit.length > 0) await appendPendingEvents(trx, { batches: atCommit, auditRows });
            else await tx.audit.insert(auditRows);
            return done;
          }),
        );
        if (hasEvents) for (const listener of listeners) listener();
        return result;
      } catch (error) {
        const code = (error as { code?: string })?.code;
        if (code !== undefined && retryableCodes.has(code) && attempt < maxAttempts) continue;
        // A prepared plan a migration made stale: the names are forgotten already (named-statements.ts).
        if (isStalePlan(error) && attempt < maxAttempts) continue;
        throw translate(error);
      }
    }
  }

  async function read<T>(work: (tx: UnitOfWork) => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        // The collector is never read: reads write no audit entry.
        return await serialize(() => work(unitOfWork(db, createAuditCollector(), memo)));
      } catch (error) {
        if (isStalePlan(error) && attempt < maxAttempts) continue;
        throw translate(error);
      }
    }
  }

  const store: SqlStore = {
    engine: options.engine,
    db,
    signals: options.signals,
    transaction,
    read,
    onEventsCommitted(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async analyze() {
      await serialize(() => analyzeSampled(db));
    },
    async ping() {
      await serialize(() => sql`select 1`.execute(db));
    },
    async close() {
      await autoAnalyze?.stop();
      await options.signals.close?.();
      await serialize(() => db.destroy());
    },
  };
  return {
    store,
    startAutoAnalyze(intervalMs) {
      const analyze = options.engine === 'pglite' ? analyzeSampled : analyzeAsConfigured;
      autoAnalyze = startAnalyzer({ db, run: serialize, analyze, intervalMs });
    },
  };
}

/** Hears every SQL statement the store runs with its duration (benchmarks count them per request). */
export type StatementListener = (statement: string, milliseconds: number) => void;

function statementLog(listener: StatementListener | undefined): LogConfig | undefined {
  if (!listener) return undefined;
  return (event) => listener(event.query.sql, event.queryDurationMillis);
}

/** Applies every pending migration; refuses a database migrated by a newer Lectern. */
export async function migrate(db: Kysely<Database>): Promise<void> {
  const migrator = new Migrator({ db, provider: migrationProvider });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName;
    throw new Error(`Database migration ${failed ?? ''} failed: ${(error as Error).message ?? String(error)}`, {
      cause: error,
    });
  }
}

/**
 * PostgreSQL's shared buffers inside PGlite, in MiB, unless the caller sizes them. PGlite's own
 * default (128 MiB) lives in the process's WASM memory and never shrinks; the operating system
 * caches the data files anyway, so a smaller pool keeps a small embedded process about 120 MiB
 * smaller. A large vector index is another matter: its HNSW search reads pages in no useful
 * order, and a pool smaller than the index makes it copy pages in and out on every search
 * (`LECTERN_PGLITE_SHARED_BUFFERS_MB`, see docs/recommendations.md).
 */
export const defaultPgliteSharedBuffersMib = 32;

/**
 * The embedded store: PGlite (PostgreSQL compiled to WASM) in `dataDir`, or in memory when
 * `dataDir` is omitted. Migrates before returning.
 */
export async function openPgliteStore(
  options: {
    dataDir?: string;
    sharedBuffersMib?: number;
    isAuditOn?: boolean;
    onStatement?: StatementListener;
    /** How often changed tables are analyzed (auto-analyze.ts); 0 never. Default 2 s. */
    autoAnalyzeMs?: number;
  } = {},
): Promise<SqlStore> {
  const sharedBuffers = options.sharedBuffersMib ?? defaultPgliteSharedBuffersMib;
  const startParams = [...PGlite.defaultStartParams, '-c', `shared_buffers=${sharedBuffers}MB`];
  // pgvector for the recommendation index (migration 0011), pg_trgm for the inventory search (0017).
  const extensions = { vector, pg_trgm };
  const pglite =
    options.dataDir === undefined
      ? new PGlite({ startParams, extensions })
      : new PGlite(options.dataDir, { startParams, extensions });
  await pglite.waitReady;
  const named = createStatementNames();
  const db = new Kysely<Database>({
    dialect: new PGliteDialect({ pglite: namePgliteStatements(pglite, named) }),
    log: statementLog(options.onStatement),
  });
  const { store, startAutoAnalyze } = wrap(db, {
    engine: 'pglite',
    isSingleConnection: true,
    isAuditOn: options.isAuditOn ?? true,
    signals: pgliteSignals(pglite),
  });
  await serializeMigration(store);
  // After migrating: an analyze must not run inside the migration's transaction (one connection).
  if (options.autoAnalyzeMs !== 0) startAutoAnalyze(options.autoAnalyzeMs ?? 2000);
  return store;
}

/** The cluster store: a PostgreSQL server through a `pg` pool. Migrates before returning. */
export async function openPostgresStore(options: {
  connectionString: string;
  poolSize?: number;
  isAuditOn?: boolean;
  onStatement?: StatementListener;
  /** How often changed tables are analyzed (auto-analyze.ts), besides autovacuum; 0 never. Default 2 s. */
  autoAnalyzeMs?: number;
}): Promise<SqlStore> {
  const pool = new pg.Pool({ connectionString: options.connectionString, max: options.poolSize ?? 10 });
  // An idle client losing its connection must not crash the process; the next query reconnects.
  pool.on('error', () => undefined);
  // Nor one checked out (pg-pool drops its own listener while a client is lent): when the server
  // goes away mid-transaction, the client emits 'error' besides failing its queries, and an
  // unheard 'error' event ends the process. Its queries' callers get the error; the pool discards
  // the client on release (no longer queryable).
  pool.on('connect', (client) => client.on('error', () => undefined));
  const named = createStatementNames();
  nameStatementsOfPool(pool, named);
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }), log: statementLog(options.onStatement) });
  const { store, startAutoAnalyze } = wrap(db, {
    engine: 'postgres',
    isSingleConnection: false,
    isAuditOn: options.isAuditOn ?? true,
    signals: postgresSignals({ connectionString: options.connectionString }),
  });
  await serializeMigration(store);
  if (options.autoAnalyzeMs !== 0) startAutoAnalyze(options.autoAnalyzeMs ?? 2000);
  return store;
}

async function serializeMigration(store: SqlStore): Promise<void> {
  try {
    await migrate(store.db);
  } catch (error) {
    await store.close();
    throw error;
  }
}
