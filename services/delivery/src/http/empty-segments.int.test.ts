import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { operator, updateProject } from '@lectern/core';
import { createLogger, createProcessMetrics, createReadiness } from '@lectern/http-kit';
import { openTestCore, seedProject, type TestCore } from '@lectern/testing';
import { buildDeliveryApp, type DeliveryChannel } from '../app.ts';
import { createSqlIndex } from '@lectern/index-sql';

/*
 * Issue 27, finding 8: a path with an empty or encoded-slash first segment (`//items`) skipped
 * authentication, reached a content route without a project and answered 500. Every such path
 * must be refused before any route runs: a 4xx in the Delivery error shape, never content.
 */

let core: TestCore;
let projectId: string;
let deliveryKey: string;
let previewKey: string;
const apps = {} as Record<DeliveryChannel, FastifyInstance>;
const ports = {} as Record<DeliveryChannel, number>;

/** Over a real socket: `inject()` parses `//items` as a protocol-relative URL and never sends it. */
function get(channel: DeliveryChannel, path: string, headers: Record<string, string> = {}) {
  return new Promise<{ statusCode: number; body: string }>((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port: ports[channel], path, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ statusCode: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

beforeAll(async () => {
  core = await openTestCore();
  const seeded = await seedProject(core, ['delivery_primary', 'preview_primary']);
  projectId = seeded.projectId;
  deliveryKey = seeded.keys.delivery_primary?.value ?? '';
  previewKey = seeded.keys.preview_primary?.value ?? '';
  await updateProject(core, { actor: operator, projectId, isSecureAccess: true });
  for (const channel of ['production', 'preview'] as const) {
    const index = createSqlIndex({ db: core.store.db });
    apps[channel] = buildDeliveryApp({
      channel,
      core,
      index,
      metrics: createProcessMetrics(),
      readiness: createReadiness([]),
      logger: createLogger({ level: 'silent' }),
    });
    await apps[channel].listen({ host: '127.0.0.1', port: 0 });
    ports[channel] = (apps[channel].server.address() as AddressInfo).port;
  }
});
afterAll(async () => {
  await Promise.all(Object.values(apps).map((a) => a.close()));
  await core.store.close();
});

const oddPaths = (id: string) => [
  '//items',
  '///items',
  '//types',
  '//items/a',
  `//${id}/items`,
  `/${id}//items`,
  `//${id}//items`,
  '/%2F/items',
  '/%2f/items',
  `/%2F${id}/items`,
  `/${id}%2F/items`,
  '/./items',
  '/../items',
  '/v2//sync',
  '/v2//items',
  '//v2/sync',
];

describe.each(['production', 'preview'] as const)('%s: paths with an empty or encoded-slash segment', (channel) => {
  it('are refused with a 4xx in the Delivery error shape, with or without a key, never content', async () => {
    // Sanity: the ordinary path serves content with the key and refuses without one.
    const key = channel === 'preview' ? previewKey : deliveryKey;
    const ok = await get(channel, `/${projectId}/items`, { authorization: `Bearer ${key}` });
    expect(ok.statusCode).toBe(200);
    expect((await get(channel, `/${projectId}/items`)).statusCode).toBe(401);

    for (const path of oddPaths(projectId)) {
      const keyless: Record<string, string> = {};
      for (const headers of [keyless, { authorization: `Bearer ${key}` }]) {
        const res = await get(channel, path, headers);
        const label = `${path} ${Object.keys(headers).length ? 'with key' : 'without key'}`;
        expect(res.statusCode, label).toBeGreaterThanOrEqual(400);
        expect(res.statusCode, label).toBeLessThan(500);
        const body = JSON.parse(res.body) as Record<string, unknown>;
        expect(body, label).toEqual({
          message: expect.any(String),
          request_id: expect.any(String),
          error_code: expect.any(Number),
          specific_code: expect.any(Number),
        });
        expect(body, label).not.toHaveProperty('items');
      }
    }
  });
});
