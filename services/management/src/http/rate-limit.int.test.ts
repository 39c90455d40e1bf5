import { createServer } from 'node:http';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { randomIds, type CoreDeps } from '@lectern/core';
import { createLogger, createProcessMetrics, createReadiness, listen, type Listening } from '@lectern/http-kit';
import { openPostgresStore, type SqlStore } from '@lectern/store-sql';
import { createTestClock, createTestDatabase, seedProject } from '@lectern/testing';
import { buildManagementApp } from '../app.ts';

/**
 * Two Management servers, each with its own connection pool, on one PostgreSQL database — as two
 * replicas would run — share each key's limits. The clock is frozen so the windows are exact.
 */
const postgresUrl = inject('postgresUrl');

describe.skipIf(!postgresUrl)('Management rate limits across servers sharing one database (SPEC 8)', () => {
  const clock = createTestClock(new Date('2026-03-01T10:00:00.500Z'));
  const stores: SqlStore[] = [];
  const servers: Listening[] = [];
  let core: CoreDeps;

  beforeAll(async () => {
    const url = await createTestDatabase(postgresUrl);
    for (let i = 0; i < 2; i++) {
      const store = await openPostgresStore({ connectionString: url, poolSize: 4 });
      stores.push(store);
      const deps: CoreDeps = { store, clock, ids: randomIds };
      const app = buildManagementApp({
        core: deps,
        metrics: createProcessMetrics(),
        readiness: createReadiness([]),
        logger: createLogger({ level: 'silent' }),
        operatorToken: null,
        rateLimits: { perSecond: 1000, perMinute: 20, perHour: 1000 },
      });
      servers.push(await listen(createServer(app), { host: '127.0.0.1', port: 0 }));
      core ??= deps;
    }
  });
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.close()));
    await Promise.all(stores.map((s) => s.close()));
  });

  it('lets exactly the limit through across both servers, then 429 with Retry-After and error_code 10000', async () => {
    const { projectId, keys } = await seedProject(core, ['management']);
    const auth = { authorization: `Bearer ${keys.management?.value}` };
    const responses = await Promise.all(
      Array.from({ length: 30 }, (_, i) => fetch(`${servers[i % 2]?.url}/v2/projects/${projectId}`, { headers: auth })),
    );
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(20);
    expect(statuses.filter((s) => s === 429)).toHaveLength(10);
    const limited = responses.find((r) => r.status === 429) as Response;
    expect(limited.headers.get('retry-after')).toBe('60');
    expect(await limited.json()).toMatchObject({ error_code: 10000, request_id: expect.any(String) });

    // Another key of the same project has its own budget.
    const other = await seedProject(core, ['management']);
    expect(
      (
        await fetch(`${servers[1]?.url}/v2/projects/${other.projectId}`, {
          headers: { authorization: `Bearer ${other.keys.management?.value}` },
        })
      ).status,
    ).toBe(200);

    clock.advance(60_000);
    expect((await fetch(`${servers[1]?.url}/v2/projects/${projectId}`, { headers: auth })).status).toBe(200);
  });
});
