import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { idFromExternalId, zeroId } from '@lectern/core';
import { readFixture, shapeDifferences } from '@lectern/testing';
import { startTestManagement, type TestManagement } from '../../testing/test-server.ts';
import { seedContentModel, type TestModel } from '../variants/test-model.ts';

type Json = Record<string, unknown>;
const fakes = 'management/kontent-ai+management-sdk-js/test/browser/fake-responses/content-items';
let server: TestManagement;
let model: TestModel;

async function call(path: string, method: string, body?: unknown): Promise<{ status: number; json: Json }> {
  const response = await server.fetch(path, { method, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  const text = await response.text();
  return { status: response.status, json: text === '' ? {} : (JSON.parse(text) as Json) };
}

beforeAll(async () => {
  server = await startTestManagement();
  model = await seedContentModel(server);
});
afterAll(async () => {
  await server.close();
});

describe('content items (v2)', () => {
  it('adds an item through the SDK with the recorded shape: collection, spaces, no external_id when unset', async () => {
    const added = await server.client
      .addContentItem()
      .withData({ name: 'On Roasts', type: { codename: 'article' } })
      .toPromise();
    expect(added.data).toMatchObject({
      name: 'On Roasts',
      codename: 'on_roasts',
      collection: { id: zeroId },
      spaces: [],
    });
    const raw = added.rawData as unknown as Json;
    expect(raw).not.toHaveProperty('external_id');
    expect(raw['sitemap_locations']).toEqual([]);
    expect(
      shapeDifferences(raw, readFixture(`${fakes}/view-content-item.json`), { ignore: ['$.external_id'] }),
    ).toEqual([]);
    const again = await server.client
      .addContentItem()
      .withData({ name: 'On Roasts', type: { codename: 'article' } })
      .toPromise();
    expect(again.data.codename).toBe(`on_roasts__${again.data.id.replaceAll('-', '').slice(0, 7)}`);
  });

  it('creates by PUT external-id (201) with the derived id, updates by codename (200), keeps the v2 codename', async () => {
    const created = await call('/items/external-id/ext-1', 'PUT', { name: 'Hooray!', type: { codename: 'article' } });
    expect(created.status).toBe(201);
    expect(created.json['id']).toBe(
      idFromExternalId({ projectId: server.projectId, kind: 'content_item', externalId: 'ext-1' }),
    );
    expect(created.json).toMatchObject({ codename: 'hooray', external_id: 'ext-1' });
    const updated = await call('/items/codename/hooray', 'PUT', { name: 'Renamed' });
    expect(updated.status).toBe(200);
    expect(updated.json).toMatchObject({ name: 'Renamed', codename: 'hooray' });
    const view = await server.client.viewContentItem().byItemCodename('hooray').toPromise();
    expect(view.data.name).toBe('Renamed');
    const events = await server.core.store.transaction((tx) =>
      tx.outbox.readAfter({ projectId: server.projectId, afterSeq: 0, limit: 1000 }),
    );
    const renamed = events.filter((e) => e.operation === 'metadata_changed' && e.objectId === created.json['id']);
    expect(renamed.map((e) => e.channel).sort()).toEqual(['delivery_preview', 'delivery_production']);
    expect(renamed[0]?.payload).toMatchObject({
      item_codename: 'hooray',
      type_codename: 'article',
      item_external_id: 'ext-1',
    });
  });

  it('refuses PUT by id or codename of a missing item (404, 100) and upserting an external id into an item', async () => {
    const missing = await call('/items/codename/nope', 'PUT', { name: 'x', type: { codename: 'article' } });
    expect(missing).toMatchObject({ status: 404, json: { error_code: 100 } });
    const byId = await call(`/items/${server.projectId}`, 'GET');
    expect(byId).toMatchObject({ status: 404, json: { error_code: 100 } });
    const ext = await call('/items/codename/hooray', 'PUT', { name: 'x', external_id: 'other' });
    expect(ext.status).toBe(400);
    expect(JSON.stringify(ext.json)).toContain('external_id');
    const bad = await call('/items', 'POST', { name: '', type: { codename: 'nope' } });
    expect(bad.status).toBe(400);
    expect((bad.json['validation_errors'] as Json[]).map((e) => e['path'])).toEqual(['name', 'type']);
  });

  it('derives spaces from the collection and moves collections', async () => {
    const collections = await call('/collections', 'PATCH', [
      { op: 'addInto', value: { name: 'Blog', codename: 'blog' } },
    ]);
    const blog = (collections.json['collections'] as { id: string; codename: string }[]).find(
      (c) => c.codename === 'blog',
    );
    const space = await call('/spaces', 'POST', {
      name: 'Site',
      codename: 'site',
      collections: [{ codename: 'blog' }],
    });
    expect(space.status).toBe(201);
    const moved = await call('/items/codename/hooray', 'PUT', { name: 'Renamed', collection: { codename: 'blog' } });
    expect(moved.json).toMatchObject({ collection: { id: blog?.id }, spaces: [{ id: space.json['id'] }] });
  });

  it('lists items in pages of 100 through x-continuation', async () => {
    for (let i = 0; i < 101; i++)
      await call('/items', 'POST', { name: `Bulk ${i}`, type: { id: model.articleTypeId } });
    const all = await server.client.listContentItems().toAllPromise();
    expect(all.data.items.length).toBe(104);
    const first = await call('/items', 'GET');
    expect((first.json['items'] as Json[]).length).toBe(100);
    expect(shapeDifferences(first.json, readFixture(`${fakes}/fake-list-content-items.json`))).toEqual([]);
  });

  it('deletes an item with its variants', async () => {
    await call('/items/codename/bulk_0/variants/codename/default', 'PUT', { elements: [] });
    expect((await call('/items/codename/bulk_0', 'DELETE')).status).toBe(204);
    expect((await call('/items/codename/bulk_0/variants/codename/default', 'GET')).status).toBe(404);
  });
});

// Last: it adds items, which the paging test above counts.
describe('generated item codenames', () => {
  it('gives items of one name distinct codenames, the first the name itself (taken ones read by prefix)', async () => {
    const codenames: unknown[] = [];
    for (const name of ['Twin Peaks', 'Twin Peaks', 'Twin Peaks', 'Twin Peaks Revisited']) {
      const added = await call('/items', 'POST', { name, type: { codename: 'article' } });
      expect(added.status).toBe(201);
      codenames.push(added.json['codename']);
    }
    expect(codenames[0]).toBe('twin_peaks');
    expect(codenames[3]).toBe('twin_peaks_revisited');
    expect(String(codenames[1])).toMatch(/^twin_peaks__[0-9a-f]{7}$/);
    expect(new Set(codenames).size).toBe(4);
  });
});
