import { sql, type Kysely } from 'kysely';
import type { Database } from './schema.ts';

/**
 * Analyzes one table, or every table, from a sample of 3,000 rows (statistics target 10). Besides
 * the time, the sample is memory: PGlite's WASM memory never shrinks, and analyzing a database of
 * 10,000 items at PostgreSQL's default target left 49 MiB more of it resident; at target 10, 15 MiB.
 */
export async function analyzeSampled(db: Kysely<Database>, table?: string): Promise<void> {
  await db.transaction().execute(async (tx) => {
    await sql`set local default_statistics_target = 10`.execute(tx);
    await (table === undefined ? sql`analyze` : sql`analyze ${sql.table(table)}`).execute(tx);
  });
}

/**
 * Analyzes one table as the database is configured (its own statistics target), skipping it while
 * another session (autovacuum, another server) analyzes it: PostgreSQL, where an analyze runs in
 * the database's process, not in this thread.
 */
export async function analyzeAsConfigured(db: Kysely<Database>, table: string): Promise<void> {
  await sql`analyze (skip_locked) ${sql.table(table)}`.execute(db);
}

/**
 * PostgreSQL's autovacuum daemon re-analyzes a table once `50 + 10 %` of its rows changed since the
 * last analyze; PGlite runs no daemon, so without this the embedded server's statistics stay those
 * of its start for as long as it runs. That is not a matter of estimates only: with no statistics a
 * variant looked up by its key was read through the (project, language) index and filtered, one
 * row per variant of the language, and the inserts of variants and versions slowed as their tables
 * grew. A seed of 10,000 items through the API slowed from 124 to 55–63 items/s as it went
 * (120 s in all); analyzed as it grows, it runs at 147–230 items/s (54 s; docs/management-writes.md).
 *
 * PostgreSQL's daemon looks once a minute (`autovacuum_naptime`): a project seeded right after its
 * database was created was written for that minute with the plans of empty tables (20,000 items
 * through the API: 5.2–5.5 ms of database CPU per item and 185–201 items/s; analyzed as they grow,
 * 3.3 ms and 240/s). So a server on PostgreSQL looks every `intervalMs` too, and analyzes as the
 * database is configured.
 *
 * Every `intervalMs` it reads the tables past that threshold (`pg_stat_user_tables` counts the
 * changes of this process on PGlite, where the analyze at start covers what came before, and of
 * every process on PostgreSQL) and analyzes them one at a time, most changed first, until
 * `budgetMs` is spent: PGlite runs in this thread, so each analyze holds the event loop. A sample of
 * 3,000 rows (statistics target 10, PostgreSQL's default is 100) keeps one analyze of a table of
 * 10,000 to 140,000 rows at 5–45 ms on PGlite instead of 20–270 ms; the planner needs the table's
 * size and rough distributions, not fine histograms.
 */
export function startAutoAnalyze(options: {
  db: Kysely<Database>;
  /** Runs a unit of work in turn with the store's other work (PGlite has one connection). */
  run: <T>(work: () => Promise<T>) => Promise<T>;
  /** `analyzeSampled` (PGlite) or `analyzeAsConfigured` (PostgreSQL). */
  analyze: (db: Kysely<Database>, table: string) => Promise<void>;
  intervalMs: number;
  budgetMs?: number;
}): { stop(): Promise<void> } {
  const budgetMs = options.budgetMs ?? 25;
  let running: Promise<void> | null = null;
  let isStopped = false;

  async function tick(): Promise<void> {
    const started = performance.now();
    const { rows } = await options.run(() =>
      sql<{ relname: string }>`
        select s.relname from pg_stat_user_tables s join pg_class c on c.oid = s.relid
        where s.n_mod_since_analyze > 50 + 0.1 * greatest(c.reltuples, 0)
        order by s.n_mod_since_analyze::float8 / (50 + greatest(c.reltuples, 0)) desc`.execute(options.db),
    );
    for (const { relname } of rows) {
      if (isStopped || performance.now() - started > budgetMs) break;
      await options.run(() => options.analyze(options.db, relname));
    }
  }

  const timer = setInterval(() => {
    if (running !== null || isStopped) return;
    // A failed round (the store closing under it) is retried at the next tick, or never after stop.
    running = tick()
      .catch(() => undefined)
      .finally(() => (running = null));
  }, options.intervalMs);
  timer.unref();

  return {
    async stop() {
      isStopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
