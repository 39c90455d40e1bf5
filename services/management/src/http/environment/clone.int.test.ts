import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManagementClient } from '@kontent-ai/management-sdk';
import { readFixture, shapeDifferences } from '@lectern/testing';
import { startTestManagement, type TestManagement } from '../../testing/test-server.ts';
import { smallPng } from '../variants/test-model.ts';

type Json = Record<string, unknown>;
const fakes = 'management/kontent-ai+management-sdk-js/test/browser/fake-responses/environments';
let server: TestManagement;

async function call(path: string, method: string, body?: unknown, key = server.apiKey, projectId = server.projectId) {
  const response = await fetch(`${server.baseUrl}/projects/${projectId}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, json: text === '' ? {} : (JSON.parse(text) as Json) };
}

function clientFor(environmentId: string, apiKey: string): ManagementClient {
  return new ManagementClient({ environmentId, apiKey, baseUrl: server.baseUrl, retryStrategy: { maxAttempts: 0 } });
}

async function waitForClone(client: ManagementClient): Promise<string> {
  for (let i = 0; i < 600; i += 1) {
    const state = (await client.getEnvironmentCloningState().toPromise()).rawData.cloning_state;
    if (state !== 'in_progress') return state;
    await new Promise((r) => setTimeout(r, 50));
  }
  return 'in_progress';
}

async function uploadAsset(title: string): Promise<Json> {
  const png = smallPng();
  const file = await server.client
    .uploadBinaryFile()
    .withData({ binaryData: png, contentType: 'image/png', filename: `${title}.png`, contentLength: png.length })
    .toPromise();
  return (await call('/assets', 'POST', { file_reference: { id: file.data.id, type: 'internal' }, title })).json;
}

beforeAll(async () => {
  server = await startTestManagement();
  await call('/languages', 'POST', { name: 'Spanish', codename: 'es-ES', is_active: true });
  await call('/types', 'POST', {
    name: 'Article',
    codename: 'article',
    elements: [
      { name: 'Title', codename: 'title', type: 'text' },
      { name: 'Image', codename: 'image', type: 'asset' },
    ],
  });
  await call('/preview-configuration', 'PUT', {
    space_domains: [],
    preview_url_patterns: [
      { content_type: { codename: 'article' }, url_patterns: [{ space: null, url_pattern: 'https://x/{Codename}' }] },
    ],
  });
});
afterAll(async () => {
  await server.close();
});

describe('environments through @kontent-ai/management-sdk', () => {
  it('clones model, settings, items, variants and assets with their ids into a new environment with its own keys', async () => {
    const asset = await uploadAsset('hero');
    await call('/items', 'POST', { name: 'First', codename: 'first', type: { codename: 'article' } });
    await call('/items/codename/first/variants/codename/default', 'PUT', {
      elements: [
        { element: { codename: 'title' }, value: 'Hello' },
        { element: { codename: 'image' }, value: [{ id: asset['id'] }] },
      ],
    });
    await call('/items/codename/first/variants/codename/default/publish', 'PUT');
    const clone = await server.client.cloneEnvironment().withData({ name: 'Develop' }).toPromise();
    const raw = clone.rawData as unknown as Json;
    expect(shapeDifferences(raw, readFixture(`${fakes}/fake-clone-environment.json`), { isExact: true })).toEqual([]);
    const id = raw['id'] as string;
    const key = raw['management_api_key'] as string;
    expect(key).not.toBe(server.apiKey);
    const cloned = clientFor(id, key);
    expect(await waitForClone(cloned)).toBe('done');
    const state = await cloned.getEnvironmentCloningState().toPromise();
    expect(shapeDifferences(state.rawData, readFixture(`${fakes}/fake-environment-cloning-state.json`))).toEqual([]);

    const info = (await cloned.environmentInformation().toPromise()).rawData as unknown as Json;
    expect(info).toMatchObject({ id, environment: 'Develop', is_production: false });
    for (const path of [
      '/types',
      '/languages',
      '/items',
      '/assets',
      '/items/codename/first/variants',
      '/preview-configuration',
    ]) {
      const mine = await call(path, 'GET');
      const theirs = await call(path, 'GET', undefined, key, id);
      expect(theirs.json, path).toEqual(JSON.parse(JSON.stringify(mine.json).replaceAll(server.projectId, id)));
    }
    // The asset's binary is served under the clone too (the same blob).
    const assetUrl = ((await call('/assets', 'GET', undefined, key, id)).json['assets'] as Json[])[0]?.[
      'url'
    ] as string;
    const bytes = await fetch(assetUrl);
    expect(bytes.status).toBe(200);
    expect(Buffer.from(await bytes.arrayBuffer()).equals(smallPng())).toBe(true);
    // Changes in the clone leave the source alone; the source's key cannot reach the clone.
    await call('/items/codename/first', 'PUT', { name: 'Changed in the clone' }, key, id);
    expect((await call('/items/codename/first', 'GET')).json['name']).toBe('First');
    expect((await call('/items', 'GET', undefined, server.apiKey, id)).status).toBe(403);
  });

  it('clones the model only when content_items_assets is false, and marks an environment as production', async () => {
    const clone = await call('/clone-environment', 'POST', {
      name: 'Model only',
      copy_data_options: { content_items_assets: false },
    });
    const id = clone.json['id'] as string;
    const key = clone.json['management_api_key'] as string;
    const cloned = clientFor(id, key);
    expect(await waitForClone(cloned)).toBe('done');
    expect((await call('/items', 'GET', undefined, key, id)).json['items']).toEqual([]);
    expect(
      ((await call('/types', 'GET', undefined, key, id)).json['types'] as Json[]).map((t) => t['codename']),
    ).toEqual(['article']);

    expect((await call('/mark-environment-as-production', 'PUT', {})).json['error_code']).toBe(232);
    await cloned.markEnvironmentAsProduction().withData({ enable_webhooks: false }).toPromise();
    expect((await call('', 'GET', undefined, key, id)).json['is_production']).toBe(true);
    expect((await call('', 'GET')).json['is_production']).toBe(false);

    const bad = await call('/clone-environment', 'POST', { name: '', roles_to_activate: ['nope'] });
    expect(bad.status).toBe(400);
    expect((bad.json['validation_errors'] as Json[]).map((v) => v['path'])).toEqual(['name', 'roles_to_activate[0]']);
  });

  it('clones 1,000 items with assets (time printed)', { timeout: 600_000 }, async () => {
    const assets: Json[] = [];
    for (let i = 0; i < 10; i += 1) assets.push(await uploadAsset(`a${i}`));
    const started = Date.now();
    for (let batch = 0; batch < 100; batch += 1)
      await Promise.all(
        Array.from({ length: 10 }, async (_, j) => {
          const n = batch * 10 + j;
          await call('/items', 'POST', { name: `Item ${n}`, codename: `item_${n}`, type: { codename: 'article' } });
          await call(`/items/codename/item_${n}/variants/codename/default`, 'PUT', {
            elements: [
              { element: { codename: 'title' }, value: `Title ${n}` },
              { element: { codename: 'image' }, value: [{ id: assets[n % 10]?.['id'] }] },
            ],
          });
        }),
      );
    const seeded = Date.now();
    const clone = await call('/clone-environment', 'POST', { name: 'Big' });
    const id = clone.json['id'] as string;
    const key = clone.json['management_api_key'] as string;
    expect(await waitForClone(clientFor(id, key))).toBe('done');
    const cloneMs = Date.now() - seeded;
    const all = await clientFor(id, key).listContentItems().toAllPromise();
    expect(all.data.items.length).toBe((await server.client.listContentItems().toAllPromise()).data.items.length);
    expect(all.data.items.length).toBeGreaterThanOrEqual(1000);
    console.log(
      `clone-environment: ${all.data.items.length} items, ${assets.length + 1} assets; seeding took ${seeded - started} ms, cloning ${cloneMs} ms`,
    );
  });
});
