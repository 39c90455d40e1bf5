import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  addContentType,
  addItem,
  createProject,
  getVariant,
  operator,
  publishVariant,
  randomIds,
  runDueJobs,
  systemStepIds,
  upsertVariant,
  type CoreDeps,
} from '@lectern/core';
import { createTestClock, createTestDatabase } from '@lectern/testing';
import { openPostgresStore, type SqlStore } from '@lectern/store-sql';

type Json = Record<string, unknown>;
const postgresUrl = inject('postgresUrl');
const fields = Array.from({ length: 12 }, (_, i) => `f${i}`);

describe.skipIf(!postgresUrl)('variants on PostgreSQL with concurrent writers and runners', () => {
  const clock = createTestClock();
  let stores: SqlStore[];
  let cores: CoreDeps[];
  let projectId: string;

  beforeAll(async () => {
    const url = await createTestDatabase(postgresUrl);
    stores = [await openPostgresStore({ connectionString: url }), await openPostgresStore({ connectionString: url })];
    cores = stores.map((store) => ({ store, clock, ids: randomIds }));
    const core = cores[0] as CoreDeps;
    projectId = (await createProject(core, { actor: operator, name: 'Concurrency' })).id;
    await addContentType(core, {
      actor: operator,
      projectId,
      body: { name: 'Note', codename: 'note', elements: fields.map((f) => ({ name: f, codename: f, type: 'text' })) },
    });
  });
  afterAll(async () => {
    await Promise.all(stores.map((s) => s.close()));
  });

  const input = (item: string) => ({
    actor: operator,
    projectId: '',
    itemKey: { codename: item },
    languageKey: { codename: 'default' },
  });

  it('never loses a partial upsert when many requests write one variant at once', async () => {
    await addItem(cores[0] as CoreDeps, {
      actor: operator,
      projectId,
      body: { name: 'Shared', type: { codename: 'note' } },
    });
    await Promise.all(
      fields.map((f, i) =>
        upsertVariant(cores[i % 2] as CoreDeps, {
          ...input('shared'),
          projectId,
          body: { elements: [{ element: { codename: f }, value: `value of ${f}` }] },
        }),
      ),
    );
    const variant = await getVariant(cores[0] as CoreDeps, { ...input('shared'), projectId });
    expect((variant['elements'] as Json[]).map((e) => e['value'])).toEqual(fields.map((f) => `value of ${f}`));
  });

  it('applies each scheduled publish exactly once with two processes running the scheduler', async () => {
    const core = cores[0] as CoreDeps;
    const names = Array.from({ length: 15 }, (_, i) => `scheduled_${i}`);
    for (const name of names) {
      await addItem(core, { actor: operator, projectId, body: { name, codename: name, type: { codename: 'note' } } });
      await upsertVariant(core, { ...input(name), projectId, body: { elements: [] } });
      await publishVariant(core, {
        ...input(name),
        projectId,
        body: { scheduled_to: new Date(clock.now().getTime() + 60_000).toISOString() },
      });
    }
    clock.advance(61_000);
    const applied = await Promise.all([
      runDueJobs(cores[0] as CoreDeps),
      runDueJobs(cores[1] as CoreDeps),
      runDueJobs(cores[0] as CoreDeps),
      runDueJobs(cores[1] as CoreDeps),
    ]);
    expect(applied.reduce((a, b) => a + b, 0)).toBe(names.length);
    const events = await stores[0]!.transaction((tx) =>
      tx.outbox.readAfter({ projectId, afterSeq: 0, limit: 100_000 }),
    );
    const published = events.filter((e) => e.operation === 'publish' && e.channel === 'delivery_production');
    expect(published.map((e) => e.payload['item_codename']).sort()).toEqual([...names].sort());
    for (const name of names) {
      const v = await getVariant(core, { ...input(name), projectId });
      expect(v['workflow_step']).toEqual({ id: systemStepIds.published });
    }
  });
});
