import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFixture, shapeDifferences } from '@lectern/testing';
import { startTestManagement, type TestManagement } from '../../testing/test-server.ts';

const netFixtures = 'management/kontent-ai+management-sdk-net/Kontent.Ai.Management.Tests/Data';
const legacyFixtures =
  'management/kontent-ai+management-sdk-js/_historical/846e2c6daf0a270229afd4cf91556fe7d46468a4/test/browser/fake-responses/webhooks';
const zero = '00000000-0000-0000-0000-000000000000';
const publishedStep = 'c199950d-99f0-4983-b711-6c4c91624b22';
let server: TestManagement;

beforeAll(async () => {
  server = await startTestManagement();
});
afterAll(async () => {
  await server.close();
});

const triggers = {
  slot: 'preview',
  events: 'specific',
  content_item: {
    enabled: true,
    actions: [
      {
        action: 'workflow_step_changed',
        transition_to: [{ workflow_identifier: { codename: 'default' }, step_identifier: { codename: 'published' } }],
      },
      { action: 'created' },
    ],
    filters: { collections: [{ codename: 'default' }], languages: [{ codename: 'default' }] },
  },
  asset: { enabled: true, actions: [{ action: 'deleted' }] },
} as const;

interface WebhookJson {
  id: string;
  health_status: string;
  enabled: boolean;
  url: string;
  delivery_triggers: Record<string, unknown>;
}

async function send(method: string, path: string, body?: unknown) {
  const r = await server.fetch(path, { method, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  return { status: r.status, json: r.status === 204 ? null : ((await r.json()) as Record<string, unknown>) };
}

describe('/webhooks-vnext through @kontent-ai/management-sdk', () => {
  it('adds, lists, gets, disables, enables and deletes a webhook in the recorded shape', async () => {
    const added = await server.client
      .addWebhook()
      .withData({
        name: 'Preview hook',
        url: 'https://example.com/hook',
        secret: 'hx3snVrI9E2Lgpi1LaL+WfiPWCh88OjI7Bv/3ihq+Qo=',
        headers: [{ key: 'api-key', value: 'abc' }],
        delivery_triggers: triggers as never,
      })
      .toPromise();
    const raw = added.rawData as unknown as WebhookJson;
    expect(raw).toMatchObject({ name: 'Preview hook', enabled: true, health_status: 'unknown' });
    expect(raw.delivery_triggers).toEqual({
      slot: 'preview',
      events: 'specific',
      content_item: {
        enabled: true,
        actions: [
          {
            action: 'workflow_step_changed',
            transition_to: [{ workflow_identifier: { id: zero }, step_identifier: { id: publishedStep } }],
          },
          { action: 'created', transition_to: null },
        ],
        filters: { collections: [{ id: zero }], content_types: [], languages: [{ id: zero }] },
      },
      content_type: { enabled: false, actions: [], filters: { content_types: [] } },
      taxonomy: { enabled: false, actions: [], filters: { taxonomies: [] } },
      asset: { enabled: true, actions: [{ action: 'deleted' }] },
      language: { enabled: false, actions: [], filters: { languages: [] } },
    });
    const recorded = readFixture(`${netFixtures}/CodeSamples/PostWebhookResponse.json`) as Record<string, unknown>;
    expect(shapeDifferences(raw, recorded)).toEqual([]);
    expect(added.data.deliveryTriggers.slot).toBe('preview');

    const list = await server.client.listWebhooks().toPromise();
    expect(list.data.webhooks.map((w) => w.id)).toEqual([raw.id]);
    const got = await server.client.getWebhook().byId(raw.id).toPromise();
    expect(got.rawData).toEqual(raw);

    await server.client.disableWebhook().byId(raw.id).toPromise();
    expect((await server.client.getWebhook().byId(raw.id).toPromise()).data.enabled).toBe(false);
    await server.client.enableWebhook().byId(raw.id).toPromise();
    expect((await server.client.getWebhook().byId(raw.id).toPromise()).data.enabled).toBe(true);

    // Legacy and current webhooks are separate families.
    expect((await send('GET', `/webhooks/${raw.id}`)).status).toBe(404);
    await server.client.deleteWebhook().byId(raw.id).toPromise();
    const gone = await send('GET', `/webhooks-vnext/${raw.id}`);
    expect(gone.status).toBe(404);
    expect(gone.json?.['error_code']).toBeGreaterThan(0);
    expect((await send('GET', '/webhooks-vnext/not-a-guid')).status).toBe(404);
  });

  it('refuses bad bodies in the Management error shape, naming every problem, and stores nothing', async () => {
    const bad = await send('POST', '/webhooks-vnext', {
      name: '',
      url: 'not a url',
      secret: '',
      headers: [
        { key: 'X-Kontent-ai-Signature', value: 'x' },
        { key: 'Content-Type', value: 'x' },
        { key: 'bad key', value: 'x' },
      ],
      delivery_triggers: { slot: 'published', events: 'specific', content_type: { enabled: true, actions: [] } },
    });
    expect(bad.status).toBe(400);
    expect(bad.json?.['error_code']).toBeGreaterThan(0);
    const paths = (bad.json?.['validation_errors'] as { path?: string }[]).map((e) => e.path).sort();
    expect(paths).toEqual([
      'delivery_triggers',
      'headers[0].key',
      'headers[1].key',
      'headers[2].key',
      'name',
      'secret',
      'url',
    ]);
    const refs = await send('POST', '/webhooks-vnext', {
      name: 'x',
      url: 'https://example.com',
      secret: 's',
      delivery_triggers: {
        slot: 'live',
        events: 'specific',
        content_item: {
          enabled: true,
          actions: [{ action: 'exploded' }],
          filters: { collections: [{ codename: 'nope' }] },
        },
      },
    });
    expect((refs.json?.['validation_errors'] as { path?: string }[]).map((e) => e.path).sort()).toEqual([
      'delivery_triggers',
      'delivery_triggers.content_item.actions[0]',
      'delivery_triggers.content_item.filters.collections[0]',
      'delivery_triggers.slot',
    ]);
    expect((await send('POST', '/webhooks-vnext', 'just text')).status).toBe(400);
    // A filter named like a member of every object (`constructor`) is no filter either.
    const proto = await send('POST', '/webhooks-vnext', {
      name: 'x',
      url: 'https://example.com',
      secret: 's',
      delivery_triggers: {
        slot: 'published',
        events: 'specific',
        asset: { enabled: true, actions: [{ action: 'deleted' }], filters: { constructor: [] } },
      },
    });
    expect((proto.json?.['validation_errors'] as { path?: string }[]).map((e) => e.path)).toEqual([
      'delivery_triggers.asset.filters.constructor',
    ]);
    expect((await send('GET', '/webhooks-vnext')).json).toEqual([]);
  });

  it('accepts string booleans and events "all", and changes the URL and resets (Lectern extensions)', async () => {
    const added = await send('POST', '/webhooks-vnext', {
      name: 'All',
      url: 'https://example.com/a',
      secret: 's',
      enabled: 'false',
      delivery_triggers: { slot: 'published', events: 'all' },
    });
    expect(added.status).toBe(201);
    const id = added.json?.['id'] as string;
    expect(added.json?.['enabled']).toBe(false);
    const moved = await send('PUT', `/webhooks-vnext/${id}/url`, { url: 'https://example.com/b' });
    expect(moved.json).toMatchObject({ url: 'https://example.com/b', health_status: 'unknown' });
    expect((await send('PUT', `/webhooks-vnext/${id}/url`, { url: 'ftp://x' })).status).toBe(400);
    expect((await send('POST', `/webhooks-vnext/${id}/reset`)).status).toBe(204);
    const debug = await send('GET', `/webhooks-vnext/${id}/notifications?filter=failing`);
    expect(debug.json).toEqual({ notifications: [] });
    expect((await send('GET', `/webhooks-vnext/${id}/notifications?filter=nope`)).status).toBe(400);
    await send('DELETE', `/webhooks-vnext/${id}`);
  });
});

describe('legacy /webhooks', () => {
  it('adds, lists, gets, disables and deletes a webhook with its triggers object', async () => {
    const body = readFixture(`${legacyFixtures}/fake-add-legacy-webhook.json`) as Record<string, unknown>;
    // The recorded body's step ids are of another project and management_api_content_changes
    // lists `publish`, which that list does not take: use the project's published step and `create`.
    const triggersBody = {
      delivery_api_content_changes: [
        { type: 'content_item_variant', operations: ['publish', 'unpublish'] },
        { type: 'taxonomy', operations: ['archive', 'restore', 'upsert'] },
      ],
      workflow_step_changes: [{ type: 'content_item_variant', transitions_to: [{ id: publishedStep }] }],
      preview_delivery_api_content_changes: [{ type: 'content_item_variant', operations: ['archive'] }],
      management_api_content_changes: [{ type: 'content_item_variant', operations: ['create'] }],
    };
    const added = await send('POST', '/webhooks', { ...body, triggers: triggersBody });
    expect(added.status).toBe(201);
    expect(added.json?.['triggers']).toEqual(triggersBody);
    const recorded = readFixture(`${legacyFixtures}/fake-get-legacy-webhook.json`) as Record<string, unknown>;
    expect(shapeDifferences(added.json, { ...recorded, id: zero, last_modified: '', health_status: '' })).toEqual([]);
    const id = added.json?.['id'] as string;
    const listed = await send('GET', '/webhooks');
    expect((listed.json as unknown as { id: string }[]).map((w) => w.id)).toEqual([id]);
    expect(shapeDifferences(listed.json, readFixture(`${legacyFixtures}/fake-list-legacy-webhooks.json`))).toEqual([]);
    expect((await send('PUT', `/webhooks/${id}/disable`, {})).status).toBe(204);
    expect((await send('PUT', `/webhooks/${id}/enable`, {})).status).toBe(204);
    expect((await send('GET', `/webhooks-vnext/${id}`)).status).toBe(404);

    const bad = await send('POST', '/webhooks', { name: 'x', url: 'https://e.com', secret: 's', triggers: {} });
    expect(bad.status).toBe(400);
    expect(
      (
        await send('POST', '/webhooks', {
          ...body,
          triggers: { management_api_content_changes: [{ type: 'content_item_variant', operations: ['publish'] }] },
        })
      ).status,
    ).toBe(400);
    expect((await send('DELETE', `/webhooks/${id}`)).status).toBe(204);
    expect((await send('GET', '/webhooks')).json).toEqual([]);
  });
});
