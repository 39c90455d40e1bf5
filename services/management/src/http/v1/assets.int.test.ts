import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFixture, shapeDifferences } from '@lectern/testing';
import { startTestManagement, type TestManagement } from '../../testing/test-server.ts';

const v1Data =
  'management/kontent-ai+management-sdk-net/_historical/1dafaa0db746cb87d1f3cc122d942d550f2fa702/Kentico.Kontent.Management.Tests/Data';
let server: TestManagement;
let v1 = '';

beforeAll(async () => {
  server = await startTestManagement();
  v1 = `${server.baseUrl.replace(/\/v2$/, '/v1')}/projects/${server.projectId}`;
});
afterAll(async () => {
  await server.close();
});

const call = (path: string, init: RequestInit = {}) =>
  fetch(`${v1}${path}`, {
    ...init,
    headers: { authorization: `Bearer ${server.apiKey}`, 'content-type': 'application/json', ...(init.headers ?? {}) },
  });

async function upload(name: string, text: string): Promise<string> {
  const response = await call(`/files/${name}`, {
    method: 'POST',
    body: text,
    headers: { 'content-type': 'text/plain' },
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { id: string }).id;
}

describe('Management API v1 assets', () => {
  it('uploads, adds, views, upserts, lists and deletes assets in the v1 shape', async () => {
    const fileId = await upload('Hello.txt', 'Hello world from the v1 API');
    const added = await call('/assets', {
      method: 'POST',
      body: JSON.stringify({
        file_reference: { id: fileId, type: 'internal' },
        title: 'Hello',
        // v1 had none of these; they are ignored.
        codename: 'Not Valid But Ignored',
        folder: { codename: 'nope' },
      }),
    });
    expect(added.status).toBe(201);
    const asset = (await added.json()) as Record<string, unknown>;
    const listFixture = readFixture<{ assets: unknown[] }>(
      `${v1Data}/ListAssets_w5Nw6jU5Rh/GET_6Zq1WzZWLk/response_content.json`,
    );
    expect(shapeDifferences(asset, listFixture.assets[0], { isExact: true })).toEqual([]);
    for (const field of ['folder', 'codename', 'collection', 'elements']) expect(asset).not.toHaveProperty(field);

    const byId = await call(`/assets/${String(asset['id'])}`);
    expect(await byId.json()).toEqual(asset);
    const byCodename = await call('/assets/codename/hello');
    expect(byCodename.status).toBe(404);

    const otherFile = await upload('HelloExternal.txt', 'Hello again');
    const body = JSON.stringify({
      file_reference: { id: otherFile, type: 'internal' },
      descriptions: [{ language: { id: '00000000-0000-0000-0000-000000000000' }, description: 'Hi' }],
    });
    const created = await call('/assets/external-id/hello-ext', { method: 'PUT', body });
    expect(created.status).toBe(201);
    const updated = await call('/assets/external-id/hello-ext', { method: 'PUT', body });
    expect(updated.status).toBe(200);
    const upsertFixture = readFixture(
      `${v1Data}/UpsertAssetByExternalId_ThZdnYABq8/PUT_WftFbRXvmM/response_content.json`,
    );
    expect(shapeDifferences(await updated.json(), upsertFixture, { isExact: true })).toEqual([]);

    const list = (await (await call('/assets')).json()) as { assets: unknown[]; pagination: unknown };
    expect(list.assets).toHaveLength(2);
    expect(list.pagination).toEqual({ continuation_token: null, next_page: null });
    expect(shapeDifferences(list, listFixture, { isExact: true })).toEqual([]);
    const badToken = await call('/assets?continuationToken=garbage');
    expect(badToken.status).toBe(400);

    expect((await call('/assets/external-id/hello-ext', { method: 'DELETE' })).status).toBe(204);
    expect((await call('/assets/external-id/hello-ext')).status).toBe(404);
  });

  it('pages with the continuationToken query and a next_page that carries it', async () => {
    for (let i = 0; i < 100; i++) {
      const fileId = await upload(`p${i}.txt`, `page ${i}`);
      await call('/assets', {
        method: 'POST',
        body: JSON.stringify({ file_reference: { id: fileId, type: 'internal' } }),
      });
    }
    const first = (await (await call('/assets')).json()) as {
      assets: unknown[];
      pagination: { continuation_token: string; next_page: string };
    };
    expect(first.assets).toHaveLength(100);
    expect(first.pagination.next_page).toBe(
      `${v1}/assets?continuationToken=${encodeURIComponent(first.pagination.continuation_token)}`,
    );
    const second = (await (
      await fetch(first.pagination.next_page, {
        headers: { authorization: `Bearer ${server.apiKey}` },
      })
    ).json()) as { assets: unknown[]; pagination: unknown };
    expect(second.assets).toHaveLength(1);
    expect(second.pagination).toEqual({ continuation_token: null, next_page: null });
  });
});
