import { randomUUID } from 'node:crypto';
import { describe, expect, inject, it } from 'vitest';
import type { ModelRecord } from '@lectern/core';
import { openPgliteStore, openPostgresStore, type SqlStore } from '@lectern/store-sql';
import { createTestDatabase } from './test-database.ts';

/**
 * The content model version (migration 0025) the write path keys its shared model reads by: every
 * commit that changes a project's model gives it a value never seen before; a rollback gives
 * none; a transaction that wrote the model itself is told no version (its rows are not shared).
 */
const postgresUrl = inject('postgresUrl');

function language(projectId: string, codename: string): ModelRecord<object> {
  return {
    projectId,
    kind: 'language',
    id: randomUUID(),
    codename,
    externalId: null,
    body: { name: codename, is_active: true },
    lastModified: new Date(),
  };
}

async function exercise(store: SqlStore): Promise<void> {
  const projectId = randomUUID();
  const itemId = randomUUID();
  const versionNow = () =>
    store.transaction(async (tx) => (await tx.items.findForWrite(projectId, { id: itemId }))?.modelVersion);
  await store.transaction(async (tx) => {
    await tx.projects.insert({
      id: projectId,
      name: 'Model version',
      environment: 'Production',
      isSecureAccess: false,
      isProduction: true,
      createdAt: new Date(),
    });
    await tx.items.insert({
      projectId,
      id: itemId,
      name: 'Item',
      codename: 'item',
      externalId: null,
      typeId: randomUUID(),
      collectionId: randomUUID(),
      sitemapLocations: [],
      lastModified: new Date(),
    });
  });
  expect(await versionNow()).toBeNull();

  await store.transaction((tx) => tx.model.insert(language(projectId, 'first')));
  const first = await versionNow();
  expect(first).toEqual(expect.any(String));
  expect(await store.transaction((tx) => tx.items.modelVersion(projectId))).toBe(first);

  // A rolled-back model change leaves the version as it was.
  await expect(
    store.transaction(async (tx) => {
      await tx.model.insert(language(projectId, 'rolled_back'));
      throw new Error('rollback');
    }),
  ).rejects.toThrow('rollback');
  expect(await versionNow()).toBe(first);

  // Inside the transaction that wrote the model: no version (nothing of it may be shared).
  const inside = await store.transaction(async (tx) => {
    await tx.model.insert(language(projectId, 'second'));
    return {
      item: (await tx.items.findForWrite(projectId, { id: itemId }))?.modelVersion,
      read: await tx.items.modelVersion(projectId),
    };
  });
  expect(inside).toEqual({ item: null, read: null });
  const second = await versionNow();
  expect(second).not.toBe(first);

  // Emptied and written again, the project never gets an earlier value back.
  await store.db.deleteFrom('model_versions').execute();
  await store.transaction((tx) => tx.model.insert(language(projectId, 'third')));
  const third = await versionNow();
  expect([first, second]).not.toContain(third);
}

describe('the content model version', () => {
  it('changes at every model commit, never at a rollback, and is withheld from its writer (PGlite)', async () => {
    const store = await openPgliteStore();
    try {
      await exercise(store);
    } finally {
      await store.close();
    }
  });

  it.skipIf(!postgresUrl)('the same on PostgreSQL', async () => {
    const store = await openPostgresStore({ connectionString: await createTestDatabase(postgresUrl) });
    try {
      await exercise(store);
    } finally {
      await store.close();
    }
  });
});
