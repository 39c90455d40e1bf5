import { sql } from 'kysely';
import { describe, expect, inject, it } from 'vitest';
import {
  addContentType,
  addItem,
  createProject,
  operator,
  publishVariant,
  randomIds,
  systemClock,
  upsertVariant,
  type CoreDeps,
} from '@lectern/core';
import { openPgliteStore, openPostgresStore, type SqlStore } from '@lectern/store-sql';
import { createTestDatabase } from './test-database.ts';

/**
 * PGlite runs no autovacuum: the embedded store analyzes the tables that changed (auto-analyze.ts).
 * Without it a variant is looked up through the (project, language) index and filtered, so every
 * upsert reads every variant of the language and a growing project slows down with each item.
 * PostgreSQL's autovacuum looks once a minute; the store looks as often as on PGlite.
 */
const postgresUrl = inject('postgresUrl');
async function grow(store: SqlStore, count: number): Promise<{ projectId: string; itemId: string }> {
  const core: CoreDeps = { store, clock: systemClock, ids: randomIds };
  const project = await createProject(core, { actor: operator, name: 'Growing' });
  const input = { actor: operator, projectId: project.id };
  await addContentType(core, {
    ...input,
    body: { name: 'Article', codename: 'article', elements: [{ name: 'Title', codename: 'title', type: 'text' }] },
  });
  let itemId = '';
  for (let i = 0; i < count; i++) {
    const item = await addItem(core, { ...input, body: { name: `Article ${i}`, type: { codename: 'article' } } });
    itemId = item.id;
    const key = { itemKey: { id: item.id }, languageKey: { codename: 'default' } };
    await upsertVariant(core, {
      ...input,
      ...key,
      body: { elements: [{ element: { codename: 'title' }, value: `${i}` }] },
    });
    await publishVariant(core, { ...input, ...key });
    // A server's requests arrive through I/O: its event loop turns between them.
    await new Promise((resolve) => setImmediate(resolve));
  }
  return { projectId: project.id, itemId };
}

async function variantLookupIndex(store: SqlStore, projectId: string, itemId: string): Promise<string> {
  const { rows } = await sql<{ 'QUERY PLAN': string }>`explain select * from content_variants
    where project_id = ${projectId} and item_id = ${itemId}
    and language_id = '00000000-0000-0000-0000-000000000000'`.execute(store.db);
  return /using (\w+)/.exec(rows.map((r) => r['QUERY PLAN']).join('\n'))?.[1] ?? 'no index';
}

describe('the store keeps its statistics current', () => {
  it('looks a variant up by its key once the project grew, as it does not without the analyzer', async () => {
    const never = await openPgliteStore({ autoAnalyzeMs: 0 });
    try {
      const { projectId, itemId } = await grow(never, 300);
      expect(await variantLookupIndex(never, projectId, itemId)).toBe('content_variants_language_step');
    } finally {
      await never.close();
    }

    const analyzed = await openPgliteStore({ autoAnalyzeMs: 50 });
    try {
      const { projectId, itemId } = await grow(analyzed, 300);
      await expect.poll(() => variantLookupIndex(analyzed, projectId, itemId)).toBe('content_variants_pk');
      const { rows } = await sql<{ analyze_count: number }>`select analyze_count::int from pg_stat_user_tables
        where relname = 'content_variants'`.execute(analyzed.db);
      expect(rows[0]?.analyze_count).toBeGreaterThan(0);
    } finally {
      await analyzed.close();
    }
  }, 120_000);

  it.skipIf(!postgresUrl)(
    'analyzes a growing project on PostgreSQL before autovacuum first looks',
    async () => {
      const store = await openPostgresStore({
        connectionString: await createTestDatabase(postgresUrl),
        autoAnalyzeMs: 50,
      });
      try {
        const { projectId, itemId } = await grow(store, 300);
        await expect.poll(() => variantLookupIndex(store, projectId, itemId)).toBe('content_variants_pk');
        // Analyzed by the store (`last_analyze`), not by autovacuum (`last_autoanalyze`).
        const { rows } = await sql<{ is_analyzed: boolean }>`select last_analyze is not null as is_analyzed
        from pg_stat_user_tables where relname = 'content_variants'`.execute(store.db);
        expect(rows[0]?.is_analyzed).toBe(true);
      } finally {
        await store.close();
      }
    },
    120_000,
  );
});
