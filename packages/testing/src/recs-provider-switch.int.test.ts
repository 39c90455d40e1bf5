import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  createHashedEmbedder,
  createProject,
  createRecsConsumer,
  operator,
  randomIds,
  systemClock,
  type CoreDeps,
} from '@lectern/core';
import { openPgliteStore, openPostgresStore, type SqlStore } from '@lectern/store-sql';
import { createSqlRecs, generateCorpus, resetOnProviderChange, writeCorpus, type SqlRecs } from '@lectern/recs-sql';
import { createTestDatabase } from './test-database.ts';

// A change of embedding provider re-embeds the projects indexed with another one, and only those.
const engines: [string, () => Promise<SqlStore>][] = [
  ['PGlite (pgvector)', () => openPgliteStore()],
  ['PostgreSQL', async () => openPostgresStore({ connectionString: await createTestDatabase(inject('postgresUrl')) })],
];

describe.each(engines)('a change of embedding provider on %s', (_, open) => {
  const before = createHashedEmbedder({ titleWeight: 1, slots: 1 });
  const after = createHashedEmbedder();
  let store: SqlStore;
  let core: CoreDeps;
  let recs: SqlRecs;
  let oldProject: string;
  let newProject: string;
  const embeddersOf = async (projectId: string) =>
    (
      await sql<{ embedder: string }>`select distinct embedder from recs_items where project_id = ${projectId}`.execute(
        store.db as unknown as Kysely<unknown>,
      )
    ).rows.map((r) => r.embedder);

  beforeAll(async () => {
    store = await open();
    core = { store, clock: systemClock, ids: randomIds };
    recs = await createSqlRecs({ db: store.db });
    const corpus = generateCorpus({ perTopic: 3 });
    oldProject = (await createProject(core, { actor: operator, name: 'Old' })).id;
    newProject = (await createProject(core, { actor: operator, name: 'New' })).id;
    await writeCorpus(core, { projectId: oldProject, items: corpus });
    await writeCorpus(core, { projectId: newProject, items: corpus });
    await createRecsConsumer({ core, writer: recs.writer, embedder: before }).catchUp(oldProject);
    await createRecsConsumer({ core, writer: recs.writer, embedder: after }).catchUp(newProject);
  }, 120_000);
  afterAll(() => store?.close());

  it('re-renders every item of a project indexed by another provider at the next catch-up', async () => {
    expect(await embeddersOf(oldProject)).toEqual([before.id]);
    const watermark = await recs.writer.watermark(newProject);
    expect(await resetOnProviderChange({ db: store.db, embedderId: after.id })).toEqual([oldProject]);
    expect(await recs.writer.watermark(oldProject)).toBe(0);
    expect(await recs.writer.watermark(newProject)).toBe(watermark);
    await createRecsConsumer({ core, writer: recs.writer, embedder: after }).catchUp();
    expect(await embeddersOf(oldProject)).toEqual([after.id]);
    expect((await recs.writer.indexedItemIds(oldProject)).length).toBe(18);
    expect(await recs.writer.watermark(oldProject)).toBeGreaterThan(0);
    // Nothing left to reset.
    expect(await resetOnProviderChange({ db: store.db, embedderId: after.id })).toEqual([]);
  });
});
