import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFixture, shapeDifferences } from '@lectern/testing';
import { startTestManagement, type TestManagement } from '../../testing/test-server.ts';
import { seedContentModel } from '../variants/test-model.ts';

type Json = Record<string, unknown>;
const recorded =
  'management/kontent-ai+management-sdk-net/_historical/1dafaa0db746cb87d1f3cc122d942d550f2fa702/Kentico.Kontent.Management.Tests/Data';
let server: TestManagement;

async function v1(path: string, method: string, body?: unknown): Promise<{ status: number; json: Json }> {
  const response = await fetch(`${server.baseUrl.replace(/\/v2$/, '/v1')}/projects/${server.projectId}${path}`, {
    method,
    headers: { authorization: `Bearer ${server.apiKey}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, json: text === '' ? {} : (JSON.parse(text) as Json) };
}

beforeAll(async () => {
  server = await startTestManagement();
  await seedContentModel(server);
});
afterAll(async () => {
  await server.close();
});

describe('Management API v1 items and variants', () => {
  it('creates items without collection and spaces, and regenerates the codename on rename', async () => {
    const created = await v1('/items', 'POST', {
      name: 'Hooray!',
      codename: 'hooray_codename',
      type: { codename: 'article' },
    });
    expect(created.status).toBe(201);
    expect(created.json).not.toHaveProperty('collection');
    expect(created.json).not.toHaveProperty('spaces');
    expect(
      shapeDifferences(
        created.json,
        readFixture(`${recorded}/CreateContentItem_4mE55eU2Us/POST_omIglNI10F/response_content.json`),
      ),
    ).toEqual([]);
    const renamed = await v1('/items/codename/hooray_codename', 'PUT', { name: 'Second name' });
    expect(renamed).toMatchObject({ status: 200, json: { name: 'Second name', codename: 'second_name' } });
  });

  it('upserts variants with elements keyed by codename and answers {elements, item, language, last_modified}', async () => {
    const put = await v1('/items/codename/second_name/variants/codename/default', 'PUT', {
      elements: {
        title: 'On Roast',
        count: 2,
        kind: [{ codename: 'news' }],
        slug: 'on-roasts',
        seo__meta_title: 'Meta',
      },
    });
    expect(put.status).toBe(201);
    expect(Object.keys(put.json).sort()).toEqual(['elements', 'item', 'language', 'last_modified']);
    const elements = put.json['elements'] as Json;
    expect(elements).toMatchObject({
      title: 'On Roast',
      count: 2,
      slug: 'on-roasts',
      seo__meta_title: 'Meta',
      related: [],
    });
    expect(Object.keys(elements)).toContain('body');
    const fixture = readFixture<Json>(`${recorded}/UpsertVariant_633US77bCP/PUT_NDGn639Ati/response_content.json`);
    expect(shapeDifferences({ ...put.json, elements: {} }, { ...fixture, elements: {} })).toEqual([]);
    const list = await v1('/items/codename/second_name/variants', 'GET');
    expect(Array.isArray(list.json)).toBe(true);
    const updated = await v1('/items/codename/second_name/variants/codename/default', 'PUT', {
      elements: { count: 3 },
    });
    expect(updated.status).toBe(200);
    expect(updated.json['elements']).toMatchObject({ title: 'On Roast', count: 3 });
  });

  it('refuses v2-only input: components, workflow, the v2 element array', async () => {
    const path = '/items/codename/second_name/variants/codename/default';
    const component =
      '<object type="application/kenticocloud" data-type="component" data-id="11111111-1111-4111-8111-111111111111"></object>';
    expect((await v1(path, 'PUT', { elements: { body: component } })).status).toBe(400);
    expect(
      (await v1(path, 'PUT', { elements: {}, workflow: { workflow_identifier: { codename: 'default' } } })).status,
    ).toBe(400);
    expect((await v1(path, 'PUT', { elements: [{ element: { codename: 'title' }, value: 'x' }] })).status).toBe(400);
    expect((await v1(path, 'PUT', { elements: { slug: { value: 'x', mode: 'custom' } } })).status).toBe(400);
  });

  it('pages items with the continuationToken query and deletes', async () => {
    for (let i = 0; i < 100; i++) await v1('/items', 'POST', { name: `Item ${i}`, type: { codename: 'article' } });
    const first = await v1('/items', 'GET');
    const pagination = first.json['pagination'] as { continuation_token: string; next_page: string };
    expect((first.json['items'] as Json[]).length).toBe(100);
    expect(pagination.next_page).toContain('?continuationToken=');
    const second = await v1(`/items?continuationToken=${encodeURIComponent(pagination.continuation_token)}`, 'GET');
    expect((second.json['items'] as Json[]).length).toBe(1);
    expect(second.json['pagination']).toEqual({ continuation_token: null, next_page: null });
    expect((await v1('/items/codename/second_name/variants/codename/default', 'DELETE')).status).toBe(204);
    expect((await v1('/items/codename/second_name', 'DELETE')).status).toBe(204);
    expect((await v1('/items/codename/second_name', 'GET')).json['error_code']).toBe(100);
  });
});
