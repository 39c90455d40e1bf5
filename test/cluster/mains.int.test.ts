import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, inject, it } from 'vitest';
import { addContentType, createIndexer, operator, randomIds, systemClock } from '@lectern/core';
import { createSqlIndex } from '@lectern/index-sql';
import { openPostgresStore } from '@lectern/store-sql';
import { createTestDatabase, seedProject } from '@lectern/testing';
import { freePort } from '../engines/postgres.ts';

const mainOf = (service: string) => fileURLToPath(new URL(`../../services/${service}/src/main.ts`, import.meta.url));

/** Runs a service's main.ts to completion with only the given environment (plus PATH). */
function run(service: string, args: string[], env: Record<string, string> = {}) {
  const { exited } = launch(service, args, env);
  return exited;
}

/** Starts a service's main.ts with only the given environment (plus PATH). */
function launch(service: string, args: string[], env: Record<string, string>) {
  const child = spawn(process.execPath, [mainOf(service), ...args], {
    env: { PATH: process.env['PATH'] ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (out += c.toString()));
  const exited = new Promise<{ code: number | null; out: string }>((resolve) =>
    child.on('exit', (code) => resolve({ code, out })),
  );
  return { child, exited };
}

/** The limits each service reads, under the same names as `lectern start`. */
const limits = {
  management: ['LECTERN_MANAGEMENT_PER_SECOND', 'LECTERN_MANAGEMENT_PER_MINUTE', 'LECTERN_MANAGEMENT_PER_HOUR'],
  delivery: [
    'LECTERN_DELIVERY_UNCACHED_PER_SECOND',
    'LECTERN_DELIVERY_UNCACHED_PER_MINUTE',
    'LECTERN_DELIVERY_WAIT_TIMEOUT_MS',
    'LECTERN_DELIVERY_CACHE_ENTRIES',
    'LECTERN_DELIVERY_CACHE_MIB',
    'LECTERN_DELIVERY_FEED_PAGE_SIZE',
    'LECTERN_DELIVERY_CDN_MAX_AGE_SECONDS',
  ],
  graphql: [
    'LECTERN_GRAPHQL_PORT',
    'LECTERN_GRAPHQL_MAX_PAGE_SIZE',
    'LECTERN_GRAPHQL_MAX_COMPLEXITY',
    'LECTERN_GRAPHQL_MAX_DEPTH',
    'LECTERN_GRAPHQL_SECURE_ACCESS_KEYS',
    'LECTERN_GRAPHQL_UNITS_PER_SECOND',
    'LECTERN_GRAPHQL_UNITS_PER_MINUTE',
    'LECTERN_DELIVERY_CACHE_MIB',
  ],
};

const required = {
  management: ['LECTERN_DATABASE_URL', 'LECTERN_S3_ENDPOINT', 'LECTERN_KAFKA_BROKERS', 'LECTERN_OPERATOR_TOKEN'],
  indexer: ['LECTERN_DATABASE_URL', 'LECTERN_KAFKA_BROKERS', 'LECTERN_ASSETS_BASE_URL'],
  delivery: ['LECTERN_DATABASE_URL'],
  webhooks: ['LECTERN_DATABASE_URL', 'LECTERN_KAFKA_BROKERS'],
  graphql: ['LECTERN_DATABASE_URL'],
  recommendations: ['LECTERN_DATABASE_URL'],
};

describe('the cluster services’ main.ts, before any engine', () => {
  for (const [service, settings] of Object.entries(required)) {
    it(`${service}: --help lists the settings; missing ones are all named (exit 2)`, async () => {
      const help = await run(service, ['--help']);
      expect(help.code).toBe(0);
      const listed = [...settings, ...(limits[service as keyof typeof limits] ?? []), 'LECTERN_LOG_LEVEL'];
      for (const env of listed) expect(help.out).toContain(env);

      const bare = await run(service, []);
      expect(bare.code).toBe(2);
      for (const env of settings) expect(bare.out).toContain(`${env}:`);
      expect(bare.out).toContain('--help');
    });
  }

  it('names the setting to check when the database cannot be reached (exit 1)', async () => {
    const result = await run('delivery', [], {
      LECTERN_DATABASE_URL: 'postgres://nobody@127.0.0.1:9/none',
      LECTERN_DELIVERY_PORT: '0',
      LECTERN_PREVIEW_PORT: '0',
    });
    expect(result.code).toBe(1);
    expect(result.out).toContain('check LECTERN_DATABASE_URL');
  });

  it('refuses a malformed setting with what it got and what it wants', async () => {
    const result = await run('indexer', [], {
      LECTERN_DATABASE_URL: 'postgres://x@127.0.0.1:9/none',
      LECTERN_KAFKA_BROKERS: 'not a broker',
      LECTERN_ASSETS_BASE_URL: 'http://127.0.0.1:4400/assets',
    });
    expect(result.code).toBe(2);
    expect(result.out).toContain('LECTERN_KAFKA_BROKERS: each broker must be host:port');
  });

  it('names every malformed limit at once', async () => {
    const result = await run('delivery', [], {
      LECTERN_DATABASE_URL: 'postgres://x@127.0.0.1:9/none',
      LECTERN_DELIVERY_UNCACHED_PER_SECOND: '-5',
      LECTERN_DELIVERY_CACHE_MIB: 'lots',
      LECTERN_DELIVERY_FEED_PAGE_SIZE: '0',
    });
    expect(result.code).toBe(2);
    expect(result.out).toContain('LECTERN_DELIVERY_UNCACHED_PER_SECOND: expected a whole number from 0 to');
    expect(result.out).toContain('LECTERN_DELIVERY_CACHE_MIB: expected a whole number');
    expect(result.out).toContain('LECTERN_DELIVERY_FEED_PAGE_SIZE: expected a whole number from 1 to 2000 (got "0")');
  });
});

describe('the cluster Delivery service on PostgreSQL', () => {
  const postgresUrl = inject('postgresUrl');

  it.skipIf(!postgresUrl)(
    'answers 429 with Retry-After after LECTERN_DELIVERY_UNCACHED_PER_MINUTE uncached requests',
    async () => {
      const databaseUrl = await createTestDatabase(postgresUrl);
      const store = await openPostgresStore({ connectionString: databaseUrl });
      const { projectId } = await seedProject({ store, clock: systemClock, ids: randomIds }, []);
      await store.close();
      const port = await freePort();
      const delivery = launch('delivery', [], {
        LECTERN_DATABASE_URL: databaseUrl,
        LECTERN_DELIVERY_INDEX: 'sql',
        LECTERN_DELIVERY_PORT: String(port),
        LECTERN_PREVIEW_PORT: '0',
        LECTERN_DELIVERY_UNCACHED_PER_SECOND: '0',
        LECTERN_DELIVERY_UNCACHED_PER_MINUTE: '2',
        LECTERN_LOG_LEVEL: 'warn',
      });
      try {
        const base = `http://127.0.0.1:${port}`;
        for (let i = 0; (await fetch(`${base}/readyz`).catch(() => null))?.status !== 200; i += 1) {
          if (i > 300) throw new Error('the delivery service did not get ready');
          await new Promise((r) => setTimeout(r, 100));
        }
        // Fixed minute windows: start a fresh one when this one is about to end.
        const left = 60_000 - (Date.now() % 60_000);
        if (left < 10_000) await new Promise((r) => setTimeout(r, left + 50));
        const statuses: number[] = [];
        let last: Response | undefined;
        for (const limit of [1, 2, 3]) {
          last = await fetch(`${base}/${projectId}/items?limit=${limit}`);
          statuses.push(last.status);
          await last.arrayBuffer();
        }
        expect(statuses[0]).not.toBe(429);
        expect(statuses[1]).not.toBe(429);
        expect(statuses[2]).toBe(429);
        expect(Number(last?.headers.get('retry-after'))).toBeGreaterThan(0);
      } finally {
        delivery.child.kill('SIGTERM');
        await delivery.exited;
      }
    },
  );
});

describe('the cluster GraphQL service on PostgreSQL', () => {
  const postgresUrl = inject('postgresUrl');

  it.skipIf(!postgresUrl)('serves the schema of the content model the indexer wrote to PostgreSQL', async () => {
    const databaseUrl = await createTestDatabase(postgresUrl);
    const store = await openPostgresStore({ connectionString: databaseUrl });
    const core = { store, clock: systemClock, ids: randomIds };
    const { projectId } = await seedProject(core, []);
    await addContentType(core, {
      actor: operator,
      projectId,
      body: {
        name: 'Fact about us',
        codename: 'fact_about_us',
        elements: [{ name: 'T', codename: 't', type: 'text' }],
      },
    });
    await createIndexer({ core, index: createSqlIndex({ db: store.db }), assetsBase: 'http://x/assets' }).catchUp(
      projectId,
    );
    await store.close();
    const port = await freePort();
    const graphql = launch('graphql', [], {
      LECTERN_DATABASE_URL: databaseUrl,
      // The SQL index the test's indexer wrote (the search engine is the default).
      LECTERN_DELIVERY_INDEX: 'sql',
      LECTERN_GRAPHQL_PORT: String(port),
      LECTERN_LOG_LEVEL: 'warn',
    });
    try {
      const base = `http://127.0.0.1:${port}`;
      for (let i = 0; (await fetch(`${base}/readyz`).catch(() => null))?.status !== 200; i += 1) {
        if (i > 300) throw new Error('the graphql service did not get ready');
        await new Promise((r) => setTimeout(r, 100));
      }
      const query = encodeURIComponent('{ factAboutUs_All { totalCount items { t } } }');
      const res = await fetch(`${base}/${projectId}?query=${query}`);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ data: { factAboutUs_All: { totalCount: 0, items: [] } } });
    } finally {
      graphql.child.kill('SIGTERM');
      await graphql.exited;
    }
  });
});
