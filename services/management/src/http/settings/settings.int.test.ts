import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFixture, shapeDifferences } from '@lectern/testing';
import { startTestManagement, type TestManagement } from '../../testing/test-server.ts';

const fakes = 'management/kontent-ai+management-sdk-js/test/browser/fake-responses';
type Json = Record<string, unknown>;
let server: TestManagement;
let other: TestManagement;
let pageTypeId: string;
let rootTypeId: string;

async function call(path: string, method: string, body?: unknown): Promise<{ status: number; json: Json }> {
  const response = await server.fetch(path, { method, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  const text = await response.text();
  return { status: response.status, json: text === '' ? {} : (JSON.parse(text) as Json) };
}

beforeAll(async () => {
  server = await startTestManagement();
  other = await startTestManagement({ core: server.core });
  pageTypeId = (await call('/types', 'POST', { name: 'Page', codename: 'page', elements: [] })).json['id'] as string;
  const root = await call('/types', 'POST', {
    name: 'Root',
    codename: 'root',
    elements: [{ name: 'Subpages', codename: 'subpages', type: 'subpages' }],
  });
  rootTypeId = root.json['id'] as string;
  await call('/spaces', 'POST', { name: 'Space 1', codename: 'space_1' });
  await call('/spaces', 'POST', { name: 'Space 2', codename: 'space_2' });
});
afterAll(async () => {
  await other.close();
  await server.close();
});

describe('preview configuration through @kontent-ai/management-sdk', () => {
  it('starts empty, is replaced by PUT with references by codename, and answers ids', async () => {
    const empty = await server.client.getPreviewConfiguration().toPromise();
    expect(empty.rawData).toEqual({ space_domains: [], preview_url_patterns: [] });

    const put = await server.client
      .modifyPreviewConfiguration()
      .withData({
        space_domains: [
          { space: { codename: 'space_1' }, domain: 'www.mysite1.com' },
          { space: { codename: 'space_2' }, domain: 'www.mysite2.com' },
        ],
        preview_url_patterns: [
          {
            content_type: { codename: 'page' },
            url_patterns: [
              { space: { codename: 'space_2' }, url_pattern: 'https://{Space}/{Lang}/articles/history/' },
              { space: null, url_pattern: 'https://www.mysite1.com/{Lang}/articles/' },
            ],
          },
        ],
      } as never)
      .toPromise();
    const spaces = (await call('/spaces', 'GET')).json as unknown as { id: string; codename: string }[];
    const space2 = spaces.find((s) => s.codename === 'space_2')?.id;
    expect(put.rawData.preview_url_patterns).toEqual([
      {
        content_type: { id: pageTypeId },
        url_patterns: [
          { space: { id: space2 }, url_pattern: 'https://{Space}/{Lang}/articles/history/' },
          { space: null, url_pattern: 'https://www.mysite1.com/{Lang}/articles/' },
        ],
      },
    ]);
    expect(
      shapeDifferences(put.rawData, readFixture(`${fakes}/preview/fake-modify-preview-configuration.json`)),
    ).toEqual([]);
    const got = await server.client.getPreviewConfiguration().toPromise();
    expect(got.rawData).toEqual(put.rawData);
    expect(got.data.spaceDomains.map((d) => d.domain)).toEqual(['www.mysite1.com', 'www.mysite2.com']);
    expect(shapeDifferences(got.rawData, readFixture(`${fakes}/preview/fake-get-preview-configuration.json`))).toEqual(
      [],
    );
    // Another environment has its own configuration.
    expect((await other.client.getPreviewConfiguration().toPromise()).rawData.space_domains).toEqual([]);
  });

  it('refuses unknown references and malformed entries, changing nothing', async () => {
    const before = (await call('/preview-configuration', 'GET')).json;
    const bad = await call('/preview-configuration', 'PUT', {
      space_domains: [{ space: { codename: 'nope' }, domain: '' }],
      preview_url_patterns: [{ content_type: { id: '11111111-1111-1111-1111-111111111111' }, url_patterns: 'x' }],
    });
    expect(bad.status).toBe(400);
    expect(bad.json['error_code']).toBe(5);
    expect((bad.json['validation_errors'] as Json[]).map((v) => v['path'])).toEqual([
      'space_domains[0].space',
      'space_domains[0].domain',
      'preview_url_patterns[0].content_type',
      'preview_url_patterns[0].url_patterns',
    ]);
    expect((await call('/preview-configuration', 'GET')).json).toEqual(before);
  });

  it('drops the entries of a deleted space', async () => {
    await call('/spaces/codename/space_2', 'DELETE');
    const got = await server.client.getPreviewConfiguration().toPromise();
    expect(got.rawData.space_domains.map((d) => d.domain)).toEqual(['www.mysite1.com']);
    expect(got.rawData.preview_url_patterns[0]?.url_patterns.map((u) => u.url_pattern)).toEqual([
      'https://www.mysite1.com/{Lang}/articles/',
    ]);
  });
});

describe('live preview and Web Spotlight through @kontent-ai/management-sdk', () => {
  it('stores the live preview status', async () => {
    expect((await server.client.getLivePreviewConfiguration().toPromise()).rawData).toEqual({ status: 'disabled' });
    const changed = await server.client.changeLivePreviewConfiguration().withData({ status: 'enabled' }).toPromise();
    expect(changed.rawData).toEqual({ status: 'enabled' });
    expect(
      shapeDifferences(changed.rawData, readFixture(`${fakes}/preview/fake-change-live-preview-configuration.json`)),
    ).toEqual([]);
    const got = await server.client.getLivePreviewConfiguration().toPromise();
    expect(got.rawData).toEqual({ status: 'enabled' });
    expect((await call('/live-preview-configuration', 'PUT', { status: 'on' })).status).toBe(400);
    expect((await other.client.getLivePreviewConfiguration().toPromise()).rawData.status).toBe('disabled');
  });

  it('activates with a root type that has subpages, deactivates keeping it, refuses other types', async () => {
    const status = await server.client.checkWebSpotlightStatus().toPromise();
    expect(status.rawData).toEqual({ enabled: false, root_type: null });
    const on = await server.client
      .activateWebSpotlight()
      .withData({ root_type: { codename: 'root' } })
      .toPromise();
    expect(on.rawData).toEqual({ enabled: true, root_type: { id: rootTypeId } });
    expect(
      shapeDifferences(on.rawData, readFixture(`${fakes}/web-spotlight/fake-activate-web-spotlight.json`)),
    ).toEqual([]);
    const off = await server.client.deactivateWebSpotlight().toPromise();
    expect(off.rawData).toEqual({ enabled: false, root_type: { id: rootTypeId } });
    expect(
      shapeDifferences(off.rawData, readFixture(`${fakes}/web-spotlight/fake-deactivate-web-spotlight.json`)),
    ).toEqual([]);
    const check = await server.client.checkWebSpotlightStatus().toPromise();
    expect(check.rawData).toEqual({ enabled: false, root_type: { id: rootTypeId } });

    const refused = await call('/web-spotlight/activate', 'PUT', { root_type: { codename: 'page' } });
    expect(refused.status).toBe(400);
    expect(refused.json['error_code']).toBe(19);
    expect((await call('/web-spotlight/status', 'GET')).json).toEqual({
      enabled: false,
      root_type: { id: rootTypeId },
    });
    const defaultRoot = await call('/web-spotlight/activate', 'PUT', { root_type: null });
    expect(defaultRoot.json).toEqual({ enabled: true, root_type: null });
  });
});

describe('roles through @kontent-ai/management-sdk', () => {
  it('lists the built-in roles and views one by id and the project manager by codename', async () => {
    const list = await server.client.listRoles().toPromise();
    expect(list.rawData.roles.map((r) => r.name)).toEqual([
      'Project manager',
      'Developer',
      'Content creator',
      'Reviewer',
    ]);
    expect(list.rawData.roles[0]?.codename).toBe('project-manager');
    expect(list.rawData.roles.slice(1).every((r) => !('codename' in r))).toBe(true);
    expect(shapeDifferences(list.rawData, readFixture(`${fakes}/roles/fake-list-roles.json`))).toEqual([]);
    const pm = await server.client.viewRole().byCodename('project-manager').toPromise();
    expect(pm.rawData).toEqual(list.rawData.roles[0]);
    expect(shapeDifferences(pm.rawData, readFixture(`${fakes}/roles/fake-view-role.json`), { isExact: true })).toEqual(
      [],
    );
    const dev = list.rawData.roles[1];
    expect(
      (
        await server.client
          .viewRole()
          .byId(dev?.id ?? '')
          .toPromise()
      ).rawData,
    ).toEqual(dev);
    const otherRoles = await other.client.listRoles().toPromise();
    expect(otherRoles.rawData.roles[0]?.id).not.toBe(pm.rawData.id);
    const missing = await call('/roles/codename/developer', 'GET');
    expect(missing.status).toBe(404);
    expect(missing.json['error_code']).toBe(116);
  });
});
