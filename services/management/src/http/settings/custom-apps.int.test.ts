import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFixture, shapeDifferences } from '@lectern/testing';
import { startTestManagement, type TestManagement } from '../../testing/test-server.ts';

const fakes = 'management/kontent-ai+management-sdk-js/test/browser/fake-responses/custom-apps';
type Json = Record<string, unknown>;
let server: TestManagement;
let roles: { id: string; name: string }[];

async function call(path: string, method: string, body?: unknown): Promise<{ status: number; json: Json }> {
  const response = await server.fetch(path, { method, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  const text = await response.text();
  return { status: response.status, json: text === '' ? {} : (JSON.parse(text) as Json) };
}

beforeAll(async () => {
  server = await startTestManagement();
  roles = (await server.client.listRoles().toPromise()).rawData.roles;
});
afterAll(async () => {
  await server.close();
});

const config = '{"theme":{"color":"#007BFF"}}';

describe('custom apps through @kontent-ai/management-sdk', () => {
  it('adds, lists, gets, modifies and deletes a custom app in the recorded shapes', async () => {
    const added = await server.client
      .addCustomApp()
      .withData({
        name: 'Custom App Name',
        codename: 'custom_app_codename',
        source_url: 'https://customapp.net',
        config,
        allowed_roles: [{ codename: 'project-manager' }, { id: roles[1]?.id ?? '' }],
      } as never)
      .toPromise();
    const raw = added.rawData as unknown as Json;
    expect(raw).toMatchObject({
      name: 'Custom App Name',
      codename: 'custom_app_codename',
      source_url: 'https://customapp.net',
      config,
      display_mode: 'fullScreen',
      allowed_roles: [{ id: roles[0]?.id }, { id: roles[1]?.id }],
    });
    expect(shapeDifferences(raw, readFixture(`${fakes}/fake-add-custom-app.json`), { isExact: true })).toEqual([]);

    const list = await server.client.listCustomApps().toPromise();
    expect(list.data.items.map((a) => a.codename)).toEqual(['custom_app_codename']);
    expect(shapeDifferences(list.rawData, readFixture(`${fakes}/fake-list-custom-apps.json`))).toEqual([]);
    const byCodename = await server.client.getCustomApp().byCustomAppCodename('custom_app_codename').toPromise();
    expect(byCodename.rawData).toEqual(raw);
    const byId = await server.client
      .getCustomApp()
      .byCustomAppId(raw['id'] as string)
      .toPromise();
    expect(byId.rawData).toEqual(raw);

    const modified = await server.client
      .modifyCustomApp()
      .byCustomAppCodename('custom_app_codename')
      .withData([
        { op: 'replace', property_name: 'name', value: 'New Custom App Name' },
        { op: 'replace', property_name: 'codename', value: 'new_custom_app_codename' },
        { op: 'replace', property_name: 'source_url', value: 'https://newcustomapplication.net' },
        { op: 'replace', property_name: 'config', value: null },
        { op: 'replace', property_name: 'display_mode', value: 'dialog' },
        { op: 'remove', property_name: 'allowed_roles', value: [{ codename: 'project-manager' }] },
        { op: 'addInto', property_name: 'allowed_roles', value: [{ id: roles[3]?.id ?? '' }] },
      ] as never)
      .toPromise();
    const after = modified.rawData as unknown as Json;
    expect(after).toEqual({
      id: raw['id'],
      name: 'New Custom App Name',
      codename: 'new_custom_app_codename',
      source_url: 'https://newcustomapplication.net',
      config: null,
      display_mode: 'dialog',
      allowed_roles: [{ id: roles[1]?.id }, { id: roles[3]?.id }],
    });
    expect(shapeDifferences(after, readFixture(`${fakes}/fake-modify-custom-app.json`), { isExact: true })).toEqual([]);

    await server.client.deleteCustomApp().byCustomAppCodename('new_custom_app_codename').toPromise();
    const gone = await call(`/custom-apps/${String(raw['id'])}`, 'GET');
    expect(gone.status).toBe(404);
    expect(gone.json['error_code']).toBe(100);
  });

  it('refuses bad bodies and operations, changing nothing', async () => {
    const bad = await call('/custom-apps', 'POST', {
      name: '',
      codename: 'Bad Codename',
      source_url: 'ftp://x',
      allowed_roles: [{ id: '11111111-1111-1111-1111-111111111111' }],
      display_mode: 'window',
    });
    expect(bad.status).toBe(400);
    expect((bad.json['validation_errors'] as Json[]).map((v) => v['path'])).toEqual([
      'name',
      'codename',
      'source_url',
      'allowed_roles[0]',
      'display_mode',
    ]);
    const ok = await call('/custom-apps', 'POST', { name: 'A', codename: 'a', source_url: 'https://a.example' });
    expect(ok.status).toBe(201);
    expect(
      (await call('/custom-apps', 'POST', { name: 'B', codename: 'a', source_url: 'https://b.example' })).status,
    ).toBe(400);
    const patch = await call('/custom-apps/codename/a', 'PATCH', [
      { op: 'replace', property_name: 'name', value: 'Renamed' },
      { op: 'replace', property_name: 'colour', value: 'red' },
    ]);
    expect(patch.status).toBe(400);
    expect((await call('/custom-apps/codename/a', 'GET')).json['name']).toBe('A');
  });
});
