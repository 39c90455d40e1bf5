import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { describe, expect, inject, it } from 'vitest';
import { sql } from 'kysely';
import { openPostgresStore } from '@lectern/store-sql';
import { createTestDatabase } from './test-database.ts';

/**
 * PostgreSQL: the statements a store runs often are prepared once per connection (named), and a
 * schema change that alters a prepared statement's columns — a newer server's migration during a
 * rolling upgrade — costs the older server no failed request.
 */
const postgresUrl = inject('postgresUrl');

describe.skipIf(!postgresUrl)('named statements on PostgreSQL', () => {
  it('prepares a statement run often, and survives a migration that adds a column to what it selects', async () => {
    const url = await createTestDatabase(postgresUrl);
    const store = await openPostgresStore({ connectionString: url, poolSize: 1 });
    const other = new pg.Client({ connectionString: url });
    await other.connect();
    try {
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
      for (let i = 0; i < 5; i++) expect((await read())?.name).toBe('Named');

      // One connection: the prepared statements listed are the store's.
      const prepared = await sql<{ statement: string }>`select statement from pg_prepared_statements`.execute(store.db);
      expect(prepared.rows.map((r) => r.statement)).toContainEqual(expect.stringMatching(/from "projects"/));

      // Another server migrates: `select *` on projects now has one more column.
      await other.query('alter table projects add column added_by_a_newer_server text');
      expect((await read())?.name).toBe('Named');
      expect((await read())?.name).toBe('Named');
    } finally {
      await other.end();
      await store.close();
    }
  });
});
