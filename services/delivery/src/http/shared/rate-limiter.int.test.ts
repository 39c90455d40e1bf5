import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { randomIds, systemClock, type CoreDeps } from '@lectern/core';
import { createLogger, createProcessMetrics, createReadiness } from '@lectern/http-kit';
import { createSqlIndex } from '@lectern/index-sql';
import { openPostgresStore, type SqlStore } from '@lectern/store-sql';
import { createTestDatabase, seedProject } from '@lectern/testing';
import { buildDeliveryApp } from '../../app.ts';

const postgresUrl = inject('postgresUrl');

describe.skipIf(!postgresUrl)('uncached rate limits shared by Delivery replicas (PostgreSQL)', () => {
  let store: SqlStore;
  let projectId: string;
  const replicas: FastifyInstance[] = [];

  beforeAll(async () => {
    store = await openPostgresStore({ connectionString: await createTestDatabase(postgresUrl) });
    const core: CoreDeps = { store, clock: systemClock, ids: randomIds };
    projectId = (await seedProject(core, [])).projectId;
    for (let i = 0; i < 2; i += 1) {
      replicas.push(
        buildDeliveryApp({
          channel: 'production',
          core,
          index: createSqlIndex({ db: store.db }),
          http: { rateLimits: [{ max: 3, seconds: 60 }], isRateLimitShared: true },
          metrics: createProcessMetrics(),
          readiness: createReadiness([]),
          logger: createLogger({ level: 'silent' }),
        }),
      );
    }
  });
  afterAll(async () => {
    await Promise.all(replicas.map((r) => r.close()));
    await store.close();
  });

  it('answers 429 once the project used its limit across both replicas, not per replica', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 4; i += 1) {
      // Alternating replicas, a different URL each time (all uncached).
      const res = await replicas[i % 2]!.inject({ method: 'GET', url: `/${projectId}/items?limit=${i + 1}` });
      statuses.push(res.statusCode);
      if (res.statusCode === 429) expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
  });
});
