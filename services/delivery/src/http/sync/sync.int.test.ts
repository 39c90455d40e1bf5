/* eslint-disable @typescript-eslint/no-explicit-any -- raw JSON bodies are read in assertions */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { getSyncClient, type SyncClient } from '@kontent-ai/sync-sdk';
import type { CoreDeps, DeliveryIndexReader, Signals } from '@lectern/core';
import { createLogger, createProcessMetrics, createReadiness, listen } from '@lectern/http-kit';
import { readFixture, shapeDifferences } from '@lectern/testing';
import { buildDeliveryApp } from '../../app.ts';

/** The slice of services/lectern's `startTestStack()` used here (loaded by path: see sdk.int.test.ts). */
interface Stack {
  readonly core: CoreDeps & { readonly store: { readonly signals: Signals } };
  readonly projectId: string;
  readonly previewKey: string;
  readonly index: DeliveryIndexReader;
  readonly delivery: FastifyInstance;
  readonly preview: FastifyInstance;
  managementJson(path: string, options?: { method?: string; body?: unknown }): Promise<Record<string, unknown>>;
  catchUp(): Promise<void>;
  close(): Promise<void>;
}
const stackModule = new URL('../../../../../test/stack/test-stack.ts', import.meta.url).pathname;
const samples = 'delivery/derived/learn-api-reference-samples';
const pageSize = 7;

let stack: Stack;
let publicSync: SyncClient;
let previewSync: SyncClient;
let pagedSync: SyncClient;
let pagedApp: FastifyInstance;
let baseUrl: string;
let previewBaseUrl: string;

const mapi = (path: string, body?: unknown, method = 'POST'): Promise<any> =>
  stack.managementJson(path, { method, body });

async function listening(app: FastifyInstance): Promise<string> {
  return `${(await listen(app, { host: '127.0.0.1', port: 0 })).url}/v2`;
}

const variantPath = (codename: string) => `/items/codename/${codename}/variants/codename/default`;

async function writeNote(codename: string, title: string, isPublished = true) {
  await mapi('/items', { name: `Note ${codename}`, codename, type: { codename: 'note' } });
  await mapi(variantPath(codename), { elements: [{ element: { codename: 'title' }, value: title }] }, 'PUT');
  if (isPublished) await mapi(`${variantPath(codename)}/publish`, undefined, 'PUT');
}

async function init(client: SyncClient): Promise<string> {
  const res = await client.init().toPromise();
  if (!res.success) throw new Error(`init failed: ${JSON.stringify(res.error)}`);
  expect(res.response.payload).toEqual({ items: [], types: [], languages: [], taxonomies: [] });
  return res.response.meta.continuationToken;
}

/** Every change after `token`, through the SDK's own paging loop; also the pages seen. */
async function syncAll(client: SyncClient, token: string) {
  const res = await client.sync(token).toAllPromise();
  if (!res.success) throw new Error(`sync failed: ${JSON.stringify(res.error)}`);
  const items = res.responses.flatMap((r) => r.payload.items);
  return { items, pages: res.responses.length, token: res.lastContinuationToken, raw: res.responses };
}

const changes = (items: readonly { change_type: string; data: { system: { codename: string } } }[]) =>
  items.map((i) => `${i.change_type}:${i.data.system.codename}`).sort();

beforeAll(async () => {
  const { startTestStack } = (await import(stackModule)) as {
    startTestStack: (options: { searchUrl?: string }) => Promise<Stack>;
  };
  // On the search-engine index when run by the `search` project (the *.search.int.test.ts twin).
  stack = await startTestStack({ searchUrl: inject('searchUrl') });
  await mapi('/types', {
    name: 'Note',
    codename: 'note',
    elements: [{ name: 'Title', codename: 'title', type: 'text' }],
  });
  await writeNote('kept', 'Kept');
  await writeNote('edited', 'Edited');
  await writeNote('unpublished', 'Unpublished');
  await writeNote('removed', 'Removed');
  await writeNote('draft', 'Draft', false);
  await stack.catchUp();
  baseUrl = await listening(stack.delivery);
  previewBaseUrl = await listening(stack.preview);
  const options = { baseUrl, responseValidation: { enable: true } };
  publicSync = getSyncClient(stack.projectId).publicApi().create(options);
  previewSync = getSyncClient(stack.projectId)
    .previewApi(stack.previewKey)
    .create({ ...options, baseUrl: previewBaseUrl });
  pagedApp = buildDeliveryApp({
    core: stack.core,
    index: stack.index,
    signals: stack.core.store.signals,
    channel: 'production',
    http: { feedPageSize: pageSize },
    metrics: createProcessMetrics(),
    readiness: createReadiness([]),
    logger: createLogger({ level: 'silent' }),
  });
  pagedSync = getSyncClient(stack.projectId)
    .publicApi()
    .create({ baseUrl: await listening(pagedApp), responseValidation: { enable: true } });
}, 120_000);

afterAll(async () => {
  await pagedApp?.close();
  await stack?.close();
});

describe('Sync API v2 through @kontent-ai/sync-sdk', () => {
  it('inits with empty arrays and a token, and reports nothing when nothing changed', async () => {
    for (const client of [publicSync, previewSync]) {
      const token = await init(client);
      const after = await syncAll(client, token);
      expect(after.items).toEqual([]);
      expect(after.pages).toBe(1);
      expect(after.token).not.toBe('');
    }
  });

  it('reports exactly the published changes on Delivery and the draft changes on Preview', async () => {
    const fromPublic = await init(publicSync);
    const fromPreview = await init(previewSync);

    await writeNote('added', 'Added');
    await writeNote('drafted', 'Drafted', false);
    await mapi(`${variantPath('edited')}/new-version`, undefined, 'PUT');
    await mapi(variantPath('edited'), { elements: [{ element: { codename: 'title' }, value: 'Edited 2' }] }, 'PUT');
    await mapi(`${variantPath('edited')}/publish`, undefined, 'PUT');
    await mapi(`${variantPath('unpublished')}/unpublish-and-archive`, undefined, 'PUT');
    await mapi('/items/codename/removed', undefined, 'DELETE');
    await mapi(variantPath('draft'), { elements: [{ element: { codename: 'title' }, value: 'Draft 2' }] }, 'PUT');
    await stack.catchUp();

    const published = await syncAll(publicSync, fromPublic);
    expect(changes(published.items)).toEqual([
      'changed:added',
      'changed:edited',
      'deleted:removed',
      'deleted:unpublished',
    ]);
    const added = published.items.find((i) => i.data.system.codename === 'added');
    expect(added?.data.system).toMatchObject({
      name: 'Note added',
      language: 'default',
      type: 'note',
      collection: 'default',
      workflow_step: 'published',
    });
    expect(published.items.find((i) => i.data.system.codename === 'removed')?.data.system.name).toBe('Note removed');
    expect(published.items.find((i) => i.data.system.codename === 'unpublished')?.data.system.name).toBe(
      'Note unpublished',
    );

    const preview = await syncAll(previewSync, fromPreview);
    const seen = changes(preview.items);
    expect(seen).toEqual(
      expect.arrayContaining([
        'changed:added',
        'changed:drafted',
        'changed:draft',
        'changed:edited',
        'deleted:removed',
      ]),
    );
    expect(seen).not.toContain('changed:kept');
    expect(preview.items.find((i) => i.data.system.codename === 'drafted')?.data.system.workflow_step).not.toBe(
      'published',
    );

    // The tokens handed back continue from there: nothing new is reported twice.
    expect((await syncAll(publicSync, published.token)).items).toEqual([]);
    expect((await syncAll(previewSync, preview.token)).items).toEqual([]);
  });

  it('reports only the last change of an item changed and then deleted', async () => {
    await writeNote('brief', 'Brief');
    await stack.catchUp();
    const from = await init(publicSync);
    await mapi(`${variantPath('brief')}/new-version`, undefined, 'PUT');
    await mapi(`${variantPath('brief')}/publish`, undefined, 'PUT');
    await mapi('/items/codename/brief', undefined, 'DELETE');
    await stack.catchUp();
    expect(changes((await syncAll(publicSync, from)).items)).toEqual(['deleted:brief']);
  });

  it('pages over many changes until an answer is empty', async () => {
    const from = await init(pagedSync);
    const count = 30;
    for (let i = 0; i < count; i += 1) await writeNote(`bulk_${String(i).padStart(2, '0')}`, `Bulk ${i}`);
    await stack.catchUp();
    const all = await syncAll(pagedSync, from);
    expect(changes(all.items)).toEqual(
      Array.from({ length: count }, (_, i) => `changed:bulk_${String(i).padStart(2, '0')}`),
    );
    // One indexer batch holds all thirty (one sequence): split into pages of seven, then the
    // empty answer that ends the SDK's loop.
    expect(all.raw.map((r) => r.payload.items.length)).toEqual([7, 7, 7, 7, 2, 0]);
    expect(new Set(all.raw.slice(0, 5).map((r) => r.meta.continuationToken)).size).toBe(5);

    // Changes indexed one batch at a time (one sequence each) page the same way.
    const next = all.token;
    for (let i = 0; i < 10; i += 1) {
      await writeNote(`single_${i}`, `Single ${i}`);
      await stack.catchUp();
    }
    const singles = await syncAll(pagedSync, next);
    expect(changes(singles.items)).toEqual(Array.from({ length: 10 }, (_, i) => `changed:single_${i}`));
    expect(singles.raw.map((r) => r.payload.items.length)).toEqual([7, 3, 0]);
  });

  it('answers in the recorded shapes, with X-Continuation on every answer', async () => {
    const initRes = await fetch(`${baseUrl}/${stack.projectId}/sync/init`, { method: 'POST' });
    expect(initRes.status).toBe(200);
    expect(initRes.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const token = initRes.headers.get('x-continuation') ?? '';
    expect(token).not.toBe('');
    const initBody = await initRes.json();
    expect(
      shapeDifferences(initBody, readFixture(`${samples}/initialize_content_synchronization.01.ok.json`), {
        isExact: true,
      }),
    ).toEqual([]);

    await writeNote('shaped', 'Shaped');
    await mapi('/items/codename/kept', undefined, 'DELETE');
    await stack.catchUp();
    const res = await fetch(`${baseUrl}/${stack.projectId}/sync`, { headers: { 'x-continuation': token } });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-continuation')).toMatch(/^[A-Za-z0-9_-]+$/);
    const body = (await res.json()) as any;
    const fixture = readFixture<any>(`${samples}/synchronize_changes.01.ok.json`);
    expect(Object.keys(body).sort()).toEqual(['items', 'languages', 'taxonomies', 'types']);
    const changed = body.items.find((i: any) => i.change_type === 'changed');
    const deleted = body.items.find((i: any) => i.change_type === 'deleted');
    expect(shapeDifferences(changed, fixture.items[0], { isExact: true })).toEqual([]);
    // A deletion carries the removed document's system object, workflow included.
    expect(shapeDifferences(deleted, fixture.items[1], { isExact: true })).toEqual([]);
    expect(changed.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
  });

  it('reports a deleted item with the name, last_modified and workflow of its last document', async () => {
    await writeNote('doomed', 'Doomed');
    await stack.catchUp();
    const [published] = await stack.index.itemsByCodename({
      projectId: stack.projectId,
      channel: 'production',
      languages: ['default'],
      codenames: ['doomed'],
    });
    const before = published?.item.system;
    expect(before?.last_modified).toBeDefined();
    const from = await init(publicSync);
    await mapi('/items/codename/doomed', undefined, 'DELETE');
    await stack.catchUp();
    const { items } = await syncAll(publicSync, from);
    expect(items).toHaveLength(1);
    const entry = items[0];
    expect(entry?.change_type).toBe('deleted');
    expect(entry?.data.system).toEqual({
      id: before?.id,
      name: 'Note doomed',
      codename: 'doomed',
      language: 'default',
      type: 'note',
      collection: 'default',
      last_modified: before?.last_modified,
      workflow: 'default',
      workflow_step: 'published',
    });
    const fixture = readFixture<any>(`${samples}/synchronize_changes.01.ok.json`);
    expect(shapeDifferences(entry, fixture.items[1], { isExact: true })).toEqual([]);
  });

  it('reports added, renamed and deleted types, taxonomies and languages in their arrays', async () => {
    const fixture = readFixture<any>(`${samples}/synchronize_changes.01.ok.json`);
    const model = async (token: string) => {
      const res = await client().sync(token).toAllPromise();
      if (!res.success) throw new Error(`sync failed: ${JSON.stringify(res.error)}`);
      const of = (key: 'types' | 'taxonomies' | 'languages') =>
        res.responses
          .flatMap((r) => r.payload[key] as any[])
          .map((d) => `${d.change_type}:${d.data.system.codename}:${d.data.system.name}`);
      const raw = res.responses.map((r) => r.payload);
      return {
        items: raw.flatMap((r) => r.items),
        types: of('types'),
        taxonomies: of('taxonomies'),
        languages: of('languages'),
        raw,
        token: res.lastContinuationToken,
      };
    };
    let current = publicSync;
    const client = () => current;
    for (const sync of [publicSync, previewSync]) {
      current = sync;
      const suffix = sync === publicSync ? 'p' : 'v';
      const from = await init(sync);
      await mapi('/types', {
        name: `Gadget ${suffix}`,
        codename: `gadget_${suffix}`,
        elements: [{ name: 'Label', codename: 'label', type: 'text' }],
      });
      await mapi('/taxonomies', { name: `Colors ${suffix}`, codename: `colors_${suffix}`, terms: [] });
      const language = await mapi('/languages', {
        name: `Czech ${suffix}`,
        codename: `cs_${suffix}`,
        is_active: true,
        fallback_language: { codename: 'default' },
      });
      await stack.catchUp();
      const added = await model(from);
      expect(added.items).toEqual([]);
      expect(added.types).toEqual([`changed:gadget_${suffix}:Gadget ${suffix}`]);
      expect(added.taxonomies).toEqual([`changed:colors_${suffix}:Colors ${suffix}`]);
      expect(added.languages).toEqual([`changed:cs_${suffix}:Czech ${suffix}`]);
      const first = added.raw[0] as any;
      expect(shapeDifferences(first.types[0], fixture.types[0], { isExact: true })).toEqual([]);
      expect(shapeDifferences(first.taxonomies[0], fixture.taxonomies[0], { isExact: true })).toEqual([]);
      expect(first.languages[0].data.system).toEqual({
        id: language.id,
        name: `Czech ${suffix}`,
        codename: `cs_${suffix}`,
      });
      // The caught-up token reports nothing more.
      expect(
        (await model(added.token)).raw.every((r) => r.types.length + r.taxonomies.length + r.languages.length === 0),
      ).toBe(true);

      const rename = [{ op: 'replace', property_name: 'name', value: `Renamed ${suffix}` }];
      await mapi(
        `/types/codename/gadget_${suffix}`,
        [{ op: 'replace', path: '/name', value: `Renamed ${suffix}` }],
        'PATCH',
      );
      await mapi(
        `/taxonomies/codename/colors_${suffix}`,
        [{ op: 'replace', path: '/name', value: `Renamed ${suffix}` }],
        'PATCH',
      );
      await mapi(`/languages/codename/cs_${suffix}`, rename, 'PATCH');
      await stack.catchUp();
      const renamed = await model(added.token);
      expect(renamed.items).toEqual([]);
      expect(renamed.types).toEqual([`changed:gadget_${suffix}:Renamed ${suffix}`]);
      expect(renamed.taxonomies).toEqual([`changed:colors_${suffix}:Renamed ${suffix}`]);
      expect(renamed.languages).toEqual([`changed:cs_${suffix}:Renamed ${suffix}`]);

      await mapi(`/types/codename/gadget_${suffix}`, undefined, 'DELETE');
      await mapi(`/taxonomies/codename/colors_${suffix}`, undefined, 'DELETE');
      await mapi(
        `/languages/codename/cs_${suffix}`,
        [{ op: 'replace', property_name: 'is_active', value: false }],
        'PATCH',
      );
      await stack.catchUp();
      const deleted = await model(renamed.token);
      expect(deleted.items).toEqual([]);
      expect(deleted.types).toEqual([`deleted:gadget_${suffix}:Renamed ${suffix}`]);
      expect(deleted.taxonomies).toEqual([`deleted:colors_${suffix}:Renamed ${suffix}`]);
      expect(deleted.languages).toEqual([`deleted:cs_${suffix}:Renamed ${suffix}`]);

      // From the first token, only the last change of each object.
      const overall = await model(from);
      expect([...overall.types, ...overall.taxonomies, ...overall.languages]).toEqual([
        `deleted:gadget_${suffix}:Renamed ${suffix}`,
        `deleted:colors_${suffix}:Renamed ${suffix}`,
        `deleted:cs_${suffix}:Renamed ${suffix}`,
      ]);
    }
  });

  it('refuses malformed, missing and foreign tokens with 400 and error_code 107', async () => {
    const previewToken = await init(previewSync);
    const url = `${baseUrl}/${stack.projectId}/sync`;
    const error = readFixture<any>(`${samples}/synchronize_changes.02.error.json`);
    for (const headers of [
      {},
      { 'x-continuation': '' },
      { 'x-continuation': 'garbage!' },
      { 'x-continuation': 'eyJ2IjoxfQ' },
      { 'x-continuation': previewToken },
    ]) {
      const res = await fetch(url, { headers });
      expect(res.status, JSON.stringify(headers)).toBe(400);
      const body = (await res.json()) as any;
      expect(body).toMatchObject({ error_code: 107, message: error.message, specific_code: 0 });
      expect(shapeDifferences(body, error, { isExact: true })).toEqual([]);
    }
    const viaSdk = await publicSync.sync('garbage').toPromise();
    expect(viaSdk.success).toBe(false);
  });

  it('keeps Preview sync behind a preview key', async () => {
    const res = await fetch(`${previewBaseUrl}/${stack.projectId}/sync/init`, { method: 'POST' });
    expect(res.status).toBe(401);
  });
});
