import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client, fetchExchange } from '@urql/core';
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import { createTestDatabase } from '@lectern/testing';
import { freePorts } from '../engines/index.ts';
import { createProjectWithKeys, type ClusterProject } from './admin.ts';
import { startCluster, type RunningCluster } from './cluster.ts';

const postgresUrl = inject('postgresUrl');
const kafkaBrokers = inject('kafkaBrokers');
const s3Endpoint = inject('s3Endpoint');
/** The delivery index lives in OpenSearch, the cluster shape's default. */
const searchUrl = inject('searchUrl');
const wait = { 'x-kc-wait-for-loading-new-content': 'true' };

describe.skipIf(!postgresUrl || !kafkaBrokers || !s3Endpoint || !searchUrl)(
  'cluster shape: each service its own process',
  () => {
    let cluster: RunningCluster;
    let project: ClusterProject;
    let operatorToken: string;

    beforeAll(async () => {
      const suffix = randomBytes(5).toString('hex');
      const [management, indexer, extra, d1, p1, d2, p2, g1, g2] = await freePorts(9);
      const ports = {
        management,
        indexer,
        extraIndexers: [extra],
        deliveries: [
          { delivery: d1, preview: p1 },
          { delivery: d2, preview: p2 },
        ],
        graphqls: [g1, g2],
      };
      operatorToken = randomBytes(24).toString('hex');
      cluster = await startCluster({
        databaseUrl: await createTestDatabase(postgresUrl),
        kafkaBrokers,
        kafkaTopic: `lectern.cluster-test-${suffix}`,
        s3: {
          endpoint: s3Endpoint,
          accessKey: inject('s3AccessKey'),
          secretKey: inject('s3SecretKey'),
          bucket: `lectern-${suffix}`,
        },
        operatorToken,
        searchUrl,
        ports,
        // GraphQL's resource budget is small here, to show that both replicas spend from one.
        graphqlEnv: { LECTERN_GRAPHQL_UNITS_PER_SECOND: '0', LECTERN_GRAPHQL_UNITS_PER_MINUTE: '30' },
      });
      project = await createProjectWithKeys({
        managementUrl: cluster.managementUrl,
        operatorToken,
        name: 'Cluster test',
        userEmail: 'cluster@lectern.test',
      });
    });
    afterAll(async () => {
      await cluster?.stop();
    });
    beforeEach(({ onTestFailed }) => {
      onTestFailed(() =>
        console.error(`--- logs of the cluster's processes ---\n${cluster?.logs() ?? '(not started)'}`),
      );
    });

    /** A Management API v2 call in project `p` with its management key; throws unless 2xx; the JSON answer or {}. */
    async function manageIn(
      p: ClusterProject,
      method: string,
      path: string,
      body?: unknown,
      headers: Record<string, string> = {},
    ) {
      const response = await fetch(`${cluster.managementUrl}/v2/projects/${p.projectId}${path}`, {
        method,
        headers: { authorization: `Bearer ${p.managementKey}`, 'content-type': 'application/json', ...headers },
        ...(body === undefined ? {} : { body: body instanceof Uint8Array ? body : JSON.stringify(body) }),
      });
      const text = await response.text();
      if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
      return (text === '' ? {} : JSON.parse(text)) as Record<string, unknown>;
    }
    const manage = (method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
      manageIn(project, method, path, body, headers);

    /** GET of one item through a Delivery or Preview listener, waiting for the index to catch up. */
    async function deliveredItem(baseUrl: string, codename: string, key?: string) {
      const response = await fetch(`${baseUrl}/${project.projectId}/items/${codename}`, {
        headers: { ...wait, ...(key === undefined ? {} : { authorization: `Bearer ${key}` }) },
      });
      const body = (await response.json()) as { item?: { elements: Record<string, { value: unknown }> } };
      return { status: response.status, title: body.item?.elements['title']?.value };
    }

    const variant = '/items/codename/first_note/variants/codename/default';

    it('publishes through Management and serves the content from both Delivery processes', async () => {
      await manage('POST', '/types', {
        name: 'Note',
        codename: 'note',
        elements: [{ name: 'Title', codename: 'title', type: 'text' }],
      });
      await manage('POST', '/items', { name: 'First note', codename: 'first_note', type: { codename: 'note' } });
      await manage('PUT', variant, { elements: [{ element: { codename: 'title' }, value: 'Hello, cluster' }] });
      for (const d of cluster.deliveries) {
        expect(await deliveredItem(d.previewUrl, 'first_note', project.previewKey)).toEqual({
          status: 200,
          title: 'Hello, cluster',
        });
      }
      await manage('PUT', `${variant}/publish`);
      for (const d of cluster.deliveries) {
        expect(await deliveredItem(d.deliveryUrl, 'first_note')).toEqual({ status: 200, title: 'Hello, cluster' });
      }

      // Both GraphQL replicas read the same index, through a mainstream client.
      for (const g of cluster.graphqls) {
        const client = new Client({
          url: `${g.url}/${project.projectId}`,
          exchanges: [fetchExchange],
          fetchOptions: { headers: wait },
        });
        const { data, error } = await client
          .query<{ note: { title: string } | null }>('{ note(codename: "first_note") { title } }', {})
          .toPromise();
        expect(error).toBeUndefined();
        expect(data?.note).toEqual({ title: 'Hello, cluster' });
      }

      await manage('PUT', `${variant}/new-version`);
      await manage('PUT', variant, { elements: [{ element: { codename: 'title' }, value: 'Hello again' }] });
      await manage('PUT', `${variant}/publish`);
      for (const d of cluster.deliveries) {
        expect(await deliveredItem(d.deliveryUrl, 'first_note')).toEqual({ status: 200, title: 'Hello again' });
      }
    });

    it('stores uploaded binaries in S3 and serves them at the asset URL, on the assets port only', async () => {
      const bytes = randomBytes(64 * 1024);
      const file = await manage('POST', '/files/photo.bin', new Uint8Array(bytes), {
        'content-type': 'application/octet-stream',
      });
      const asset = await manage('POST', '/assets', {
        file_reference: { id: file['id'], type: 'internal' },
        title: 'Photo',
      });
      const url = String(asset['url']);
      expect(url.startsWith(`${cluster.assetsUrl}/assets/`)).toBe(true);
      const served = await fetch(url);
      expect(served.status).toBe(200);
      expect(Buffer.from(await served.arrayBuffer()).equals(bytes)).toBe(true);
      expect(served.headers.get('x-content-type-options')).toBe('nosniff');
      expect(served.headers.get('content-disposition')).toMatch(/^attachment; /);
      const redirect = await fetch(`${cluster.managementUrl}${new URL(url).pathname}`, { redirect: 'manual' });
      expect(redirect.status).toBe(302);
      expect(redirect.headers.get('location')).toBe(url);
    });

    it('unpublishing removes the item from both Delivery processes', async () => {
      await manage('PUT', `${variant}/unpublish-and-archive`);
      for (const d of cluster.deliveries) {
        expect((await deliveredItem(d.deliveryUrl, 'first_note')).status).toBe(404);
      }
    });

    it('spreads projects over the two indexers of the consumer group; every publish reaches Delivery', async () => {
      const batches = async (url: string) => {
        const text = await (await fetch(`${url}/metrics`)).text();
        return Number(/^lectern_index_applied_batches_total (\S+)$/m.exec(text)?.[1] ?? 'NaN');
      };
      const before = await Promise.all(cluster.indexerUrls.map(batches));
      // Kafka hashes each project to one of 16 partitions, split between the two members: twelve
      // projects all landing on one member's half would happen about once in 2,000 runs.
      const projects = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          createProjectWithKeys({
            managementUrl: cluster.managementUrl,
            operatorToken,
            name: `Scale ${i}`,
            userEmail: 'scale@lectern.test',
          }),
        ),
      );
      await Promise.all(
        projects.map(async (p) => {
          const api = (method: string, path: string, body?: unknown) => manageIn(p, method, path, body);
          await api('POST', '/types', {
            name: 'Note',
            codename: 'note',
            elements: [{ name: 'Title', codename: 'title', type: 'text' }],
          });
          await api('POST', '/items', { name: 'Note', codename: 'note_1', type: { codename: 'note' } });
          await api('PUT', '/items/codename/note_1/variants/codename/default', {
            elements: [{ element: { codename: 'title' }, value: `In ${p.projectId}` }],
          });
          await api('PUT', '/items/codename/note_1/variants/codename/default/publish');
        }),
      );
      for (const p of projects) {
        for (const d of cluster.deliveries) {
          const response = await fetch(`${d.deliveryUrl}/${p.projectId}/items/note_1`, { headers: wait });
          expect(response.status).toBe(200);
        }
      }
      const after = await Promise.all(cluster.indexerUrls.map(batches));
      expect(after.map((n, i) => n - before[i]!).every((grew) => grew > 0)).toBe(true);
    });

    it('reports relay lag on Management and consumer and index lag on the indexer, all reaching 0', async () => {
      const metric = async (url: string, name: string) => {
        const text = await (await fetch(`${url}/metrics`)).text();
        return new RegExp(`^${name}(\\{[^}]*\\})? (\\S+)$`, 'm').exec(text)?.[2];
      };
      const settles = async (url: string, name: string) => {
        for (let i = 0; i < 50 && (await metric(url, name)) !== '0'; i++) await sleep(200);
        return metric(url, name);
      };
      expect(await settles(cluster.managementUrl, 'lectern_outbox_relay_lag_events')).toBe('0');
      expect(await settles(cluster.indexerUrl, 'lectern_event_consumer_lag_events')).toBe('0');
      expect(await settles(cluster.indexerUrl, 'lectern_index_watermark_lag_events')).toBe('0');
    });

    it("shares a project's GraphQL resource budget between the GraphQL replicas (429 + Retry-After)", async () => {
      const p = await createProjectWithKeys({
        managementUrl: cluster.managementUrl,
        operatorToken,
        name: 'GraphQL budget',
        userEmail: 'budget@lectern.test',
      });
      const left = 60_000 - (Date.now() % 60_000);
      if (left < 15_000) await sleep(left + 50);
      const statuses: number[] = [];
      let retryAfter: string | null = null;
      for (let i = 0; i < 32; i++) {
        const g = cluster.graphqls[i % 2]!;
        // Each query is new (never a cache hit) and reads no item: one unit each.
        const response = await fetch(`${g.url}/${p.projectId}?query=${encodeURIComponent(`{ q${i}: __typename }`)}`);
        statuses.push(response.status);
        if (response.status === 429) retryAfter = response.headers.get('retry-after');
        await response.arrayBuffer();
      }
      expect(statuses.slice(0, 30).every((s) => s === 200)).toBe(true);
      expect(statuses.slice(30)).toEqual([429, 429]);
      expect(Number(retryAfter)).toBeGreaterThan(0);
    });

    it('every process drains and exits 0 on SIGTERM', async () => {
      const codes = await cluster.stop();
      expect(codes).toEqual({
        management: 0,
        indexer: 0,
        'indexer-2': 0,
        'delivery-1': 0,
        'delivery-2': 0,
        'graphql-1': 0,
        'graphql-2': 0,
      });
    });
  },
);
