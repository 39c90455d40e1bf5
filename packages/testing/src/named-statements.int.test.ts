import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import pg from 'pg';
import { describe, expect, inject, it } from 'vitest';
import { openPgliteStore, openPostgresStore, type SqlStore } from '@lectern/store-sql';
import { createTestDatabase } from './test-database.ts';

/**
 * The statements a store runs often are prepared once (named), and a schema change that alters a
 * prepared statement's columns — a newer server's migration during a rolling upgrade — costs no
 * failed request.
 */
const postgresUrl = inject('postgresUrl');

async function exercise(store: SqlStore, migrate: (ddl: string) => Promise<unknown>): Promise<void> {
  const id = randomUUID();
  await store.transaction((tx) =>
    tx.projects.insert({
      id,
      name: 'Named',
      environment: 'Production',
      isSecureAccess: false,
      isProduction: true,
      createdAt: new Date(),
    }),
  );
  const read = () => store.transaction((tx) => tx.projects.get(id));
  // A statement on the store's pool outside its transactions (as the delivery index reads).
  const direct = async () =>
    (await store.db.selectFrom('projects').selectAll().where('id', '=', id).executeTakeFirst())?.name;
  for (let i = 0; i < 5; i++) {
    expect((await read())?.name).toBe('Named');
    expect(await direct()).toBe('Named');
  }

  // One connection: the prepared statements listed are the store's.
  const prepared = await sql<{ statement: string }>`select statement from pg_prepared_statements`.execute(store.db);
  expect(prepared.rows.map((r) => r.statement)).toContainEqual(expect.stringMatching(/from "projects"/));

  // `select *` on projects now has one more column.
  await migrate('alter table projects add column added_by_a_newer_server text');
  expect((await read())?.name).toBe('Named');
  expect((await read())?.name).toBe('Named');
  // The names were forgotten at the first stale plan: the direct read is prepared afresh too.
  expect(await direct()).toBe('Named');
  // Met outside a transaction, a stale plan fails that one statement; the next is prepared afresh.
  await migrate('alter table projects add column and_another text');
  await expect(direct()).rejects.toThrow(/cached plan must not change result type/);
  expect(await direct()).toBe('Named');
  // Writes and errors go through the named path too: a unique violation is still a conflict.
  await expect(
    store.transaction((tx) =>
      tx.projects.insert({
        id,
        name: 'Again',
        environment: 'Production',
        isSecureAccess: false,
        isProduction: true,
        createdAt: new Date(),
      }),
    ),
  ).rejects.toMatchObject({ code: 'CONFLICT' });
}

describe('named statements', () => {
  it('PGlite: prepares a statement run often, and survives a migration that adds a column to what it selects', async () => {
    const store = await openPgliteStore();
    try {
      await exercise(store, (ddl) => sql.raw(ddl).execute(store.db));
    } finally {
      await store.close();
    }
  });

  it.skipIf(!postgresUrl)('the same on PostgreSQL, the migration made by another server', async () => {
    const url = await createTestDatabase(postgresUrl);
    const store = await openPostgresStore({ connectionString: url, poolSize: 1 });
    const other = new pg.Client({ connectionString: url });
    await other.connect();
    try {
      await exercise(store, (ddl) => other.query(ddl));
    } finally {
      await other.end();
      await store.close();
    }
  });
});
