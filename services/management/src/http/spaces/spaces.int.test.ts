import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFixture, shapeDifferences } from '@lectern/testing';
import { startTestManagement, type TestManagement } from '../../testing/test-server.ts';

const fixtures = 'management/kontent-ai+management-sdk-js/test/browser/fake-responses/spaces';
const zero = '00000000-0000-0000-0000-000000000000';
let rootItem: string;
let server: TestManagement;

beforeAll(async () => {
  server = await startTestManagement();
  await server.client
    .setCollections()
    .withData([{ op: 'addInto', value: { name: 'Blog', codename: 'blog' } }])
    .toPromise();
  await server.fetch('/types', {
    method: 'POST',
    body: JSON.stringify({ name: 'Page', codename: 'page', elements: [] }),
  });
  const home = await server.fetch('/items', {
    method: 'POST',
    body: JSON.stringify({ name: 'Home', codename: 'home', type: { codename: 'page' } }),
  });
  rootItem = ((await home.json()) as { id: string }).id;
});
afterAll(async () => {
  await server.close();
});

interface SpaceJson {
  id: string;
  name: string;
  codename: string;
  web_spotlight_root_item: { id: string } | null;
  collections: { id: string }[];
}

const listRaw = async () => (await server.fetch('/spaces').then((r) => r.json())) as SpaceJson[];

describe('spaces through @kontent-ai/management-sdk', () => {
  it('adds, lists, views, modifies and deletes a space', async () => {
    const added = await server.client
      .addSpace()
      .withData({ name: 'Space 1', web_spotlight_root_item: { id: rootItem }, collections: [{ codename: 'default' }] })
      .toPromise();
    const raw = added.rawData as unknown as SpaceJson;
    expect(raw).toMatchObject({
      name: 'Space 1',
      codename: 'space_1',
      web_spotlight_root_item: { id: rootItem },
      collections: [{ id: zero }],
    });
    expect(shapeDifferences(raw, readFixture(`${fixtures}/fake-add-space.json`), { isExact: true })).toEqual([]);

    const list = await server.client.listSpaces().toPromise();
    expect(list.data.map((s) => s.codename)).toEqual(['space_1']);
    expect(shapeDifferences(list.rawData, readFixture(`${fixtures}/fake-list-spaces.json`))).toEqual([]);
    for (const query of [
      server.client.viewSpace().bySpaceId(raw.id),
      server.client.viewSpace().bySpaceCodename('space_1'),
    ]) {
      const view = await query.toPromise();
      expect(shapeDifferences(view.rawData, readFixture(`${fixtures}/fake-view-space.json`))).toEqual([]);
      expect(view.data.id).toBe(raw.id);
    }

    const modified = await server.client
      .modifySpace()
      .bySpaceCodename('space_1')
      .withData([
        { op: 'replace', property_name: 'name', value: 'Blog space' },
        { op: 'replace', property_name: 'codename', value: 'blog_space' },
        { op: 'replace', property_name: 'collections', value: [{ codename: 'blog' }, { id: zero }] },
        { op: 'replace', property_name: 'web_spotlight_root_item', value: { external_id: 'home' } },
      ])
      .toPromise();
    const after = modified.rawData as unknown as SpaceJson;
    expect(after).toMatchObject({ id: raw.id, name: 'Blog space', codename: 'blog_space' });
    expect(after.collections).toHaveLength(2);
    expect(after.web_spotlight_root_item?.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(shapeDifferences(after, readFixture(`${fixtures}/fake-modify-space.json`))).toEqual([]);

    const removal = await server.fetch('/collections', {
      method: 'PATCH',
      body: JSON.stringify([{ op: 'remove', reference: { codename: 'blog' } }]),
    });
    expect(removal.status).toBe(400);

    await server.client.deleteSpace().bySpaceId(raw.id).toPromise();
    expect(await listRaw()).toEqual([]);
  });

  it('refuses bad bodies with every problem listed, and changes nothing', async () => {
    await server.client.addSpace().withData({ name: 'Kept', codename: 'kept' }).toPromise();
    const before = await listRaw();
    const send = async (method: string, path: string, payload: unknown) => {
      const r = await server.fetch(path, { method, body: JSON.stringify(payload) });
      expect(r.status).toBe(400);
      const json = (await r.json()) as { error_code: number; validation_errors: { path?: string }[] };
      expect(json.error_code).toBe(5);
      return json.validation_errors.map((e) => e.path).sort();
    };
    expect(
      await send('POST', '/spaces', {
        name: 3,
        codename: 'Not OK',
        web_spotlight_root_item: { id: rootItem, external_id: 'x' },
        collections: [{ codename: 'missing' }],
      }),
    ).toEqual(['codename', 'collections[0]', 'name', 'web_spotlight_root_item']);
    expect(await send('POST', '/spaces', { name: 'Again', codename: 'kept' })).toEqual(['codename']);
    expect(
      await send('PATCH', '/spaces/codename/kept', [
        { op: 'replace', property_name: 'name', value: 'Changed' },
        { op: 'replace', property_name: 'collections', value: 'all' },
        { op: 'add', property_name: 'name', value: 'x' },
        { op: 'replace', property_name: 'color', value: 'x' },
      ]),
    ).toEqual(['[1].value', '[2].op', '[3].property_name']);
    expect(await listRaw()).toEqual(before);
  });

  it('answers 404 for unknown spaces and 405 for unsupported methods', async () => {
    const missing = await server.fetch('/spaces/codename/nope');
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { error_code: number }).error_code).toBe(121);
    expect((await server.fetch('/spaces', { method: 'DELETE' })).status).toBe(405);
    expect((await server.fetch('/spaces/codename/kept', { method: 'PUT', body: '{}' })).status).toBe(405);
  });
});
