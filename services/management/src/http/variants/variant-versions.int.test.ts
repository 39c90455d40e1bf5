import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemStepIds } from '@lectern/core';
import { startTestManagement, type TestManagement } from '../../testing/test-server.ts';
import { seedContentModel, type TestModel } from './test-model.ts';

/*
 * The version history routes (Lectern extension, docs/history.md) through the real app and a
 * management key: list (paged, x-continuation), get one as the variant it was, restore, refusals
 * in the Management API's error shape, and nothing stored by a refused restore.
 */

type Json = Record<string, unknown>;
const variant = '/items/codename/target/variants/codename/default';
let server: TestManagement;
let model: TestModel;

async function call(url: string, method = 'GET', body?: unknown, headers: Record<string, string> = {}) {
  const response = await server.fetch(url, {
    method,
    headers,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, json: (text === '' ? {} : JSON.parse(text)) as Json };
}

const valueOf = (json: Json, codename: string) =>
  (json['elements'] as { element: { id: string }; value: unknown }[]).find(
    (e) => e.element.id === model.element(codename),
  )?.value;

/** Every element kind with a value, as a full v2 upsert body (the fixture's model). */
function fullBody(title: string): Json {
  return {
    elements: [
      { element: { codename: 'title' }, value: title },
      { element: { codename: 'code' }, value: 'ABC' },
      {
        element: { codename: 'body' },
        value: `<p>${title} with <strong>bold</strong> text.</p><object type="application/kenticocloud" data-type="component" data-id="7d4ae6b0-2b88-4a64-a6f2-2b7f4c2f5a11"></object>`,
        components: [
          {
            id: '7d4ae6b0-2b88-4a64-a6f2-2b7f4c2f5a11',
            type: { codename: 'widget' },
            elements: [{ element: { codename: 'caption' }, value: 'A caption' }],
          },
        ],
      },
      { element: { codename: 'count' }, value: 42 },
      { element: { codename: 'date' }, value: '2026-03-01T10:00:00Z', display_timezone: 'Europe/Prague' },
      { element: { codename: 'kind' }, value: [{ codename: 'news' }] },
      { element: { codename: 'topics' }, value: [{ codename: 'coffee' }] },
      { element: { codename: 'slug' }, value: 'my-slug', mode: 'custom' },
      { element: { codename: 'widget_data' }, value: '{"a":1}', searchable_value: 'a one' },
      { element: { codename: 'seo__meta_title' }, value: 'Meta' },
    ],
  };
}

beforeAll(async () => {
  server = await startTestManagement();
  model = await seedContentModel(server);
  await call('/items', 'POST', { name: 'Target', codename: 'target', type: { codename: 'article' } });
  const created = await call(variant, 'PUT', fullBody('First'));
  expect(created.status, JSON.stringify(created.json)).toBe(201);
});
afterAll(async () => {
  await server.close();
});

describe('the version history routes', () => {
  it('restores every element kind exactly, as a new version, after a bad publish', async () => {
    const first = await call(variant);
    expect((await call(`${variant}/publish`, 'PUT')).status).toBe(204);
    expect((await call(`${variant}/new-version`, 'PUT')).status).toBe(204);
    await call(variant, 'PUT', { elements: [{ element: { codename: 'title' }, value: 'Bad' }] });
    expect((await call(`${variant}/publish`, 'PUT')).status).toBe(204);

    const list = await call(`${variant}/versions`);
    expect(list.status).toBe(200);
    const versions = list.json['versions'] as Json[];
    expect(versions.map((v) => v['operation'])).toEqual(['publish', 'upsert', 'new_version', 'publish', 'create']);
    expect(versions[1]?.['changed_elements']).toEqual([{ id: model.element('title') }]);
    expect(list.json['pagination']).toEqual({ continuation_token: null, next_page: null });
    const good = versions[3] as Json;
    const one = await call(`${variant}/versions/${String(good['id'])}`);
    expect(one.status).toBe(200);
    expect(valueOf(one.json, 'title')).toBe('First');
    expect((one.json['version'] as Json)['is_published']).toBe(true);

    const restored = await call(`${variant}/versions/${String(good['id'])}/restore`, 'POST');
    expect(restored.status).toBe(200);
    expect((restored.json['version'] as Json)['restored_from']).toEqual({ id: good['id'] });
    const now = await call(variant);
    // A new draft (a new version of the published variant) holding the good values, every kind alike.
    expect(now.json['workflow_step']).not.toEqual({ id: systemStepIds.published });
    expect(now.json['elements']).toEqual(first.json['elements']);
    const after = (await call(`${variant}/versions`)).json['versions'] as Json[];
    expect(after.slice(0, 2).map((v) => v['operation'])).toEqual(['restore', 'new_version']);
    expect(after).toHaveLength(7);
    // The published version is still the bad one until someone publishes the restored draft.
    expect((await call(`${variant}/published`)).json['elements']).not.toEqual(first.json['elements']);
  });

  it('starts a new history for a variant deleted and created again (the old one went with it)', async () => {
    await call('/items', 'POST', { name: 'Again', codename: 'again', type: { codename: 'article' } });
    const again = '/items/codename/again/variants/codename/default';
    for (const title of ['One', 'Two'])
      await call(again, 'PUT', { elements: [{ element: { codename: 'title' }, value: title }] });
    expect((await call(again, 'DELETE')).status).toBe(204);
    const created = await call(again, 'PUT', { elements: [{ element: { codename: 'title' }, value: 'Three' }] });
    expect(created.status, JSON.stringify(created.json)).toBe(201);
    const versions = (await call(`${again}/versions`)).json['versions'] as Json[];
    expect(versions.map((v) => v['number'])).toEqual([1]);
    expect(versions[0]?.['operation']).toBe('create');
  });

  it('pages newest first with x-continuation', async () => {
    await call('/items', 'POST', { name: 'Paged', codename: 'paged', type: { codename: 'article' } });
    const paged = '/items/codename/paged/variants/codename/default';
    for (let i = 0; i < 55; i++)
      await call(paged, 'PUT', { elements: [{ element: { codename: 'title' }, value: `T${i}` }] });
    const first = await call(`${paged}/versions`);
    const page1 = first.json['versions'] as Json[];
    expect(page1).toHaveLength(50);
    expect(page1[0]?.['number']).toBe(55);
    const token = (first.json['pagination'] as Json)['continuation_token'] as string;
    expect(typeof token).toBe('string');
    const second = await call(`${paged}/versions`, 'GET', undefined, { 'x-continuation': token });
    expect((second.json['versions'] as Json[]).map((v) => v['number'])).toEqual([5, 4, 3, 2, 1]);
    const foreign = await call(`${variant}/versions`, 'GET', undefined, { 'x-continuation': token });
    expect(foreign.status).toBe(400);
  });

  it('refuses in the Management API error shape and stores nothing', async () => {
    const versions = (await call(`${variant}/versions`)).json['versions'] as Json[];
    const missing = await call(`${variant}/versions/0b5c2b5e-0000-4000-8000-000000000000`);
    expect(missing.status).toBe(404);
    expect(missing.json).toMatchObject({ error_code: 146, request_id: expect.any(String) });
    expect((await call(`${variant}/versions/not-an-id/restore`, 'POST')).status).toBe(404);
    expect((await call('/items/codename/nope/variants/codename/default/versions')).status).toBe(404);
    expect((await call(`${variant}/versions`, 'DELETE')).status).toBe(405);
    // A version of another variant is not found through this one.
    const other = (await call('/items/codename/paged/variants/codename/default/versions')).json['versions'] as Json[];
    expect((await call(`${variant}/versions/${String(other[0]?.['id'])}`)).status).toBe(404);
    // Scheduled: refused, nothing saved.
    await call(`${variant}/publish`, 'PUT');
    const future = new Date(Date.now() + 86_400_000).toISOString();
    await call(`${variant}/new-version`, 'PUT');
    expect(
      (await call(`${variant}/schedule-publish-and-unpublish`, 'PUT', { publish_scheduled_to: future })).status,
    ).toBe(204);
    const before = ((await call(`${variant}/versions`)).json['versions'] as Json[]).length;
    const refused = await call(`${variant}/versions/${String(versions.at(-1)?.['id'])}/restore`, 'POST');
    expect(refused.status).toBe(400);
    expect(refused.json).toMatchObject({ error_code: 212 });
    expect(((await call(`${variant}/versions`)).json['versions'] as Json[]).length).toBe(before);
  });
});
