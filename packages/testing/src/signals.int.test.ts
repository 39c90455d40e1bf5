import { randomUUID } from 'node:crypto';
import { describe, expect, inject, it } from 'vitest';
import pg from 'pg';
import { createSqlIndex } from '@lectern/index-sql';
import { openPgliteStore, openPostgresStore, type SqlStore } from '@lectern/store-sql';
import type { SignalTopic } from '@lectern/core';
import { newChangeEvent, range, waitFor } from './bus-contract.ts';
import { createTestDatabase } from './test-database.ts';

const postgresUrl = inject('postgresUrl');

/** What a subscriber of one topic received, and how often it was told to distrust it. */
async function listenTo(store: SqlStore, topic: SignalTopic) {
  const got = { payloads: [] as string[], resets: 0 };
  const stop = await store.signals.subscribe({
    topic,
    listener: (p) => got.payloads.push(p),
    onReset: () => (got.resets += 1),
  });
  return { got, stop };
}

const project = (id: string) => ({
  id,
  name: 'P',
  environment: 'Production',
  isSecureAccess: false,
  isProduction: true,
  createdAt: new Date(),
});

function describeSignals(engine: string, open: () => Promise<SqlStore>) {
  describe(`change signals on ${engine}`, () => {
    it('announce an outbox commit with its last sequence, and nothing for a rollback', async () => {
      const store = await open();
      const { got, stop } = await listenTo(store, 'committed');
      const p = randomUUID();
      await store.transaction((tx) => tx.projects.insert(project(p)));
      await store.transaction((tx) => tx.outbox.append(p, range(1, 3).map(newChangeEvent), new Date()));
      await expect(
        store.transaction(async (tx) => {
          await tx.outbox.append(p, range(1, 2).map(newChangeEvent), new Date());
          throw new Error('rolled back');
        }),
      ).rejects.toThrow('rolled back');
      await store.transaction((tx) => tx.outbox.append(p, range(1, 1).map(newChangeEvent), new Date()));
      await waitFor('two commits are announced', () => got.payloads.length >= 2, 5_000);
      expect(got.payloads).toEqual([`${p}:3`, `${p}:4`]);
      await stop();
      await store.close();
    });

    it('announce an index watermark and an access change', async () => {
      const store = await open();
      const indexed = await listenTo(store, 'indexed');
      const access = await listenTo(store, 'access');
      const p = randomUUID();
      await store.transaction((tx) => tx.projects.insert(project(p)));
      await store.transaction((tx) => tx.projects.update(p, { isSecureAccess: true }));
      await createSqlIndex({ db: store.db }).apply({
        projectId: p,
        toSeq: 7,
        timestamp: new Date(),
        items: [],
        model: { types: [], taxonomies: [], languages: [] },
      });
      await waitFor(
        'both are announced',
        () => indexed.got.payloads.length > 0 && access.got.payloads.length > 0,
        5_000,
      );
      expect(indexed.got.payloads).toEqual([`${p}:7`]);
      expect(access.got.payloads).toEqual([p]);
      await store.close();
    });
  });
}

describeSignals('PGlite', () => openPgliteStore());

describe.skipIf(!postgresUrl)('PostgreSQL', () => {
  describeSignals('PostgreSQL', async () =>
    openPostgresStore({ connectionString: await createTestDatabase(postgresUrl) }),
  );

  it('listens again after its connection is killed, and says signals may have been missed', async () => {
    const url = await createTestDatabase(postgresUrl);
    const store = await openPostgresStore({ connectionString: url });
    const { got } = await listenTo(store, 'committed');
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(
      `select pg_terminate_backend(pid) from pg_stat_activity where query like 'listen %' and pid <> pg_backend_pid()`,
    );
    await waitFor('the subscriber is told of the reconnect', () => got.resets > 0, 15_000);
    const p = randomUUID();
    await store.transaction((tx) => tx.projects.insert(project(p)));
    await store.transaction((tx) => tx.outbox.append(p, range(1, 2).map(newChangeEvent), new Date()));
    await waitFor('a commit after the reconnect is announced', () => got.payloads.includes(`${p}:2`), 5_000);
    await admin.end();
    await store.close();
  });
});
